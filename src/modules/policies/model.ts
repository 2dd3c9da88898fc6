/** The policies' wire seeds (the insure, appr and list commands) and the portal's forms (the list's filters, the operator's review). */
import { z } from "zod";
import { normaliseUuid } from "../../core/ids";
import { pageSeed } from "../../core/pagination";
import { isoDate } from "../../core/validation";
import { allProductCodes } from "../../products";
import { watMidnight } from "../../products/policy-helpers";
import { POLICY_STATUSES } from "./schema";
import type { PolicyFilters } from "./service";

/** What a policy is issued from beside its product: the reference, the duration and the product's facts (addtnlFact is the product's to validate). */
export const policyFieldsSeed = z.strictObject({
  id: z.unknown(),
  insrncDrtn: z.unknown().optional(),
  addtnlFact: z.record(z.string(), z.unknown()).optional(),
});

/** The envelope part of the insure seed (spec 2.5): the product's code in three parts, then the policy's fields. */
export const insureSeed = z.strictObject({
  ctgry: z.string().min(1).max(20),
  type: z.string().min(1).max(20),
  pckg: z.string().min(1).max(10),
  ...policyFieldsSeed.shape,
});

export const webHookUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048);

/** `appr`: approve (the default) or decline; a decline's note is the domain's rule (reviewPolicy). */
export const reviewSeed = z.strictObject({
  status: z.enum(["a", "d"]).default("a"),
  statusNote: z.string().trim().min(1).max(500).optional(),
});

/** The approvals queue's form: anything but "d" approves; a blank note is no note. */
export const reviewForm = z.object({
  decision: z
    .string()
    .optional()
    .transform((decision): "a" | "d" => (decision === "d" ? "d" : "a")),
  statusNote: z
    .string()
    .optional()
    .transform((note) => note?.trim() || undefined),
});

/** `dump entt_*` and `dump entt_*ADMIN`. */
export const listSeed = pageSeed.extend({
  status: z.enum(POLICY_STATUSES).optional(),
  productCode: z.string().max(40).optional(),
  /** Created on or after this date (Nigerian local time). */
  from: isoDate.optional(),
  /** Created on or before this date (Nigerian local time). */
  to: isoDate.optional(),
});

/** A list's date bounds (Nigerian local time), both days included: the same for the commands and the portal. */
export const createdWithin = (from: string | undefined, to: string | undefined): Pick<PolicyFilters, "from" | "to"> => ({
  from: from ? watMidnight(from) : undefined,
  to: to ? new Date(watMidnight(to).getTime() + 86_400_000) : undefined,
});

const DATE = /^\d{4}-\d\d-\d\d$/;
/** The "expiring soon" choices of the list, in days. */
const EXPIRING_WITHIN = ["30", "7"];

/** The portal list's filters from a query string; anything malformed is dropped rather than refused (it is a filter). */
export function policyFilters(query: Record<string, string | undefined>, now = new Date()): { filters: PolicyFilters; values: Record<string, string> } {
  const values: Record<string, string> = {};
  if (query.status && (POLICY_STATUSES as readonly string[]).includes(query.status)) values.status = query.status;
  if (query.product && allProductCodes().includes(query.product)) values.product = query.product;
  if (query.from && DATE.test(query.from)) values.from = query.from;
  if (query.to && DATE.test(query.to)) values.to = query.to;
  if (query.expiring && EXPIRING_WITHIN.includes(query.expiring)) values.expiring = query.expiring;
  const consumerId = query.consumer ? normaliseUuid(query.consumer) : undefined;
  if (consumerId) values.consumer = query.consumer!;
  const filters: PolicyFilters = {
    ...(consumerId ? { consumerId } : {}),
    status: values.status as PolicyFilters["status"],
    productCode: values.product,
    ...createdWithin(values.from, values.to),
    ...(values.expiring ? { coverEndsBy: { now, by: new Date(now.getTime() + Number(values.expiring) * 86_400_000) } } : {}),
  };
  return { filters, values };
}
