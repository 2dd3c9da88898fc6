/**
 * What the two cargo covers share (spec 2.5): goods in transit and marine describe the goods, the
 * voyage and the proforma invoice the same way.
 */
import { z } from "zod";
import { jsonKind, text } from "../../core/validation";
import { factError } from "../credit-life/parties";
import { watToday } from "../policy-helpers";

export const goodsDescription = text(500);

/** Spec 2.5: proformaInvoice is the invoice's reference number; a link to the document is not one. */
export const invoiceReference = text(100).refine((ref) => !/^([a-z][a-z0-9+.-]*:\/\/|www\.)/i.test(ref), "must be the invoice reference number, not a URL");

/** An invoice is issued before the goods are insured, so a proformaDate after today is a typo. */
export function checkProformaDate(proformaDate: string, now: Date): void {
  if (proformaDate > watToday(now)) throw factError("proformaDate", `must not be in the future; received "${proformaDate}"`);
}

export type VoyageStop = { origin: string } | { destination: string };

const STOP_SHAPE = 'must be an object with exactly one key, "origin" or "destination"';
const MAX_PLACE_LENGTH = 100;

/** One stop as the reference and the OpenAPI document show it (`voyage` checks entries itself, for its own messages). */
const stopSchema = (key: "origin" | "destination") => ({
  type: "object",
  properties: { [key]: { type: "string", minLength: 1 } },
  required: [key],
  additionalProperties: false,
});
const voyageStop = z
  .unknown()
  .meta({ description: 'A stop: { "origin": "<place>" } or { "destination": "<place>" }', oneOf: [stopSchema("origin"), stopSchema("destination")] });

/**
 * Spec 2.5 and 8: at least 2 entries, each an object with exactly one key, origin or destination
 * (a free-text place), and at least one of each. Places are trimmed.
 */
export const voyage = z
  .array(voyageStop)
  .min(2)
  .transform((entries, ctx): VoyageStop[] => {
    const stops: VoyageStop[] = [];
    entries.forEach((entry, i) => {
      const isObject = typeof entry === "object" && entry !== null && !Array.isArray(entry);
      const keys = isObject ? Object.keys(entry) : [];
      const key = keys[0];
      if (keys.length !== 1 || (key !== "origin" && key !== "destination")) {
        const received = !isObject ? jsonKind(entry) : keys.length ? `key${keys.length > 1 ? "s" : ""} ${keys.join(", ")}` : "an empty object";
        ctx.addIssue({ code: "custom", path: [i], message: `${STOP_SHAPE}; received ${received}` });
        return;
      }
      const place = (entry as Record<string, unknown>)[key];
      if (typeof place !== "string")
        ctx.addIssue({ code: "custom", path: [i, key], message: `must be a string naming the place; received ${jsonKind(place)}` });
      else if (place.trim().length > MAX_PLACE_LENGTH)
        ctx.addIssue({ code: "custom", path: [i, key], message: `must be at most ${MAX_PLACE_LENGTH} characters` });
      else stops.push(key === "origin" ? { origin: place.trim() } : { destination: place.trim() });
    });
    if (stops.length === entries.length && !(placesOf(stops, "origin").length && placesOf(stops, "destination").length))
      ctx.addIssue({
        code: "custom",
        message: 'must include an "origin" entry and a "destination" entry, e.g. [{"origin": "Lagos"}, {"destination": "Abuja"}]',
      });
    return stops;
  });

export function placesOf(stops: readonly VoyageStop[], key: "origin" | "destination"): string[] {
  return stops.flatMap((stop) => (key in stop ? [(stop as Record<string, string>)[key]!] : []));
}

/** The voyage as a certificate prints it: Lagos → Rotterdam. */
export const routeOf = (stops: readonly VoyageStop[]): string => stops.map((stop) => ("origin" in stop ? stop.origin : stop.destination)).join(" → ");
