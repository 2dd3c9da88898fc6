/**
 * Issuance mechanics the vehicle, device, travel, health and property rules share: the
 * insrncDrtn of a policy request, cover that starts today, refusals naming an addtnlFact field,
 * and naira figures sent as floats. Rules stay in each family; this is only the plumbing.
 */
import { badRequest, type CommandError } from "../../core/errors";
import { parseWith } from "../../core/validation";
import { coverEnd, watMidnight, watToday } from "../policy-helpers";
import { type DurationCode, durationField } from "../shared";
import type { InsuredConsumer } from "../types";

/** A 400 naming `seed.addtnlFact.<field>`, for rules checked after the schema (cross-field, clock, consumer). */
export function factError(field: string, rule: string): CommandError {
  return badRequest(`seed.addtnlFact.${field} ${rule}`, `seed.addtnlFact.${field}`);
}

/** The policy's insrncDrtn (top level of the insure seed), limited to the durations the product sells. */
export function policyDuration<const D extends readonly [DurationCode, ...DurationCode[]]>(allowed: D, insrncDrtn: unknown): D[number] {
  return parseWith(durationField(allowed), insrncDrtn, "seed.insrncDrtn") as D[number];
}

/** Products without a start date in their addtnlFact are covered from today (midnight WAT) for the duration. */
export function coverFromToday(now: Date, duration: DurationCode): { coverStart: Date; coverEnd: Date } {
  const coverStart = watMidnight(watToday(now));
  return { coverStart, coverEnd: coverEnd(coverStart, duration) };
}

/** The consumer's dob.date (spec 2.3), when the profile has one. */
export function consumerBirthDate(consumer: InsuredConsumer): string | undefined {
  const dob = (consumer.profile.dob as { date?: unknown } | undefined)?.date;
  return typeof dob === "string" ? dob : undefined;
}

/** The consumer's address line (spec 2.3 addrss.addrss), when the profile has one. */
export function consumerAddress(consumer: InsuredConsumer): string | undefined {
  const address = (consumer.profile.addrss as { addrss?: unknown } | undefined)?.addrss;
  return typeof address === "string" ? address : undefined;
}
