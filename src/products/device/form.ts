/** The portal's device forms: quote and insure seeds of spec 2.4 and 2.5, one input per field. */
import { durationSelect } from "../forms";
import type { ProductForms } from "../types";
import type { DeviceIdentifier } from "./policy";
import { DEVICE_DURATIONS } from "./tiers";

const duration = durationSelect(DEVICE_DURATIONS);

/** Examples, and where staff find the number the rules check, per kind of device. */
const HINTS: Readonly<Record<DeviceIdentifier["kind"], { brand: string; model: string; uIdnt: string }>> = {
  imei: {
    brand: "e.g. Samsung",
    model: "e.g. Galaxy A54",
    uIdnt: "15 digits: dial *#06# on the phone to show it. A phone can hold one active policy at a time.",
  },
  serial: {
    brand: "e.g. HP",
    model: "e.g. EliteBook 840",
    uIdnt: "Letters, digits and hyphens, as printed under the laptop. A laptop can hold one active policy at a time.",
  },
};

/** Every tier of a family asks the same: the tier is the product chosen, not an input. */
export function deviceForms(identifier: DeviceIdentifier): () => ProductForms {
  const hints = HINTS[identifier.kind];
  const forms: ProductForms = {
    quote: [duration],
    policy: [
      duration,
      { kind: "text", path: "addtnlFact.brand", label: "Make", required: true, hint: hints.brand },
      { kind: "text", path: "addtnlFact.model", label: "Model", required: true, hint: hints.model },
      { kind: "text", path: "addtnlFact.uIdnt", label: identifier.label, required: true, hint: hints.uIdnt },
    ],
  };
  return () => forms;
}
