import { day } from "../../../views/format";
import type { VerifiedPolicy } from "../../../views/verify";
import type { Config } from "../../core/config";
import type { Database } from "../../db/client";
import { findProduct, productName } from "../../products";
import { findConsumer } from "../consumers";
import type { PolicyRecord } from "../policies";
import { storedTerms } from "../policies";
import { insuredName } from "./service";

/** Initials and surname only: the public page confirms a certificate without exposing the person. */
const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((part, i, all) => (i === all.length - 1 ? part : `${part[0]}.`))
    .join(" ");

/** The state a traffic officer or a shop clerk needs at a glance: in force, not yet, or no cover (and why). */
function stateOf(policy: PolicyRecord, now: Date): Pick<VerifiedPolicy, "state" | "statusText"> {
  if (policy.status === "p") return { state: "no-cover", statusText: "awaiting the insurer's decision: it gives no cover yet" };
  if (policy.status === "d") return { state: "no-cover", statusText: "declined: it gives no cover" };
  if (policy.status === "l") return { state: "no-cover", statusText: "lapsed: it gives no cover" };
  if (policy.status === "c") {
    const from = day(policy.cancelledFrom);
    return policy.cancelledFrom && now < policy.cancelledFrom
      ? { state: "valid", statusText: `valid until it is cancelled from ${from}` }
      : { state: "cancelled", statusText: `cancelled from ${from}: it gives no cover` };
  }
  if (policy.status === "e") return { state: "expired", statusText: "expired: its cover has ended" };
  if (now < policy.coverStart) return { state: "valid", statusText: "valid; cover has not started yet" };
  if (now >= policy.coverEnd) return { state: "expired", statusText: "expired: its cover has ended" };
  return { state: "valid", statusText: "valid and in force" };
}

/** What the insured item is, as the certificate names it: the vehicle and its plate, or the device. */
function insuredItem(policy: PolicyRecord): string | undefined {
  const product = findProduct(policy.productCode);
  const vehicle = product.family.policy.registeredVehicle?.(product.type, storedTerms(policy));
  if (vehicle) return `${vehicle.make} ${vehicle.model}, registration ${vehicle.registration}`;
  if (policy.deviceId) {
    // Stored as "imei:<digits>" or "serial:<number>" (products/device/policy.ts); the certificate's "Device" line names it.
    const [kind, identifier] = policy.deviceId.split(/:(.*)/);
    const device = policy.printed.find(([label]) => label === "Device")?.[1] ?? "Device";
    return `${device}, ${kind === "imei" ? "IMEI" : "serial number"} ${identifier}`;
  }
  return undefined;
}

/** The public verification page's view of a policy: who insures what, for when, and whether it holds now. */
export async function verificationOf(db: Database, config: Config, policy: PolicyRecord, now: Date): Promise<VerifiedPolicy> {
  const consumer = await findConsumer(db, policy.partnerId, policy.consumerId);
  return {
    policyNo: policy.policyNo!,
    ...stateOf(policy, now),
    insurer: config.INSURER_NAME,
    productName: productName(policy.productCode),
    insuredInitials: initials(insuredName(consumer?.profile ?? {})),
    insuredItem: insuredItem(policy),
    coverStart: policy.coverStart,
    // A cancelled policy's cover ends where the cancellation took effect.
    coverEnd: policy.cancelledFrom ?? policy.coverEnd,
    specimen: policy.mode === "test",
  };
}
