/** The policies' wire seeds (the insure, appr and list commands) and the portal's forms (the list's filters, the operator's review). */
import { z } from "zod";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { pageSeed, withDayFilter } from "../../core/pagination";
import { parseWith } from "../../core/validation";
import { allProductCodes } from "../../products";
import { endOfWatDayAhead, watMidnight } from "../../products/policy-helpers";
import { POLICY_STATUSES } from "./schema";
import { FIND_MAX_LENGTH, type PolicyFilters } from "./service";

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
export const listSeed = withDayFilter(
  pageSeed.extend({
    status: z.enum(POLICY_STATUSES).optional(),
    productCode: z.string().max(40).optional(),
  }),
);

/** A list's date bounds (Nigerian local time), both days included: the same for the commands and the portal. */
export const createdWithin = (from: string | undefined, to: string | undefined): Pick<PolicyFilters, "from" | "to"> => ({
  from: from ? watMidnight(from) : undefined,
  to: to ? new Date(watMidnight(to).getTime() + 86_400_000) : undefined,
});

/** The "expiring soon" choices of the list, in days. */
const EXPIRING_WITHIN = ["30", "7"];
/** The list commands' own day filter, so a date the portal is given is refused in the same words. */
const dayFilter = withDayFilter(z.object({}));

/** The operator's mode choices beside the default, live business ("all": live and test). */
const MODES = ["test", "all"];

/**
 * The portal list's filters from a query string, as typed: a choice the page's selects never offer
 * is dropped; the dates and the text to find are kept, to be shown with their refusal
 * (policyFilters). The operator's list also reads a partner and a mode.
 */
export function policyFilterValues(query: Record<string, string | undefined>, operator = false): Record<string, string> {
  const values: Record<string, string> = {};
  if (query.q?.trim()) values.q = query.q.trim();
  if (query.status && (POLICY_STATUSES as readonly string[]).includes(query.status)) values.status = query.status;
  if (query.product && allProductCodes().includes(query.product)) values.product = query.product;
  if (query.from?.trim()) values.from = query.from.trim();
  if (query.to?.trim()) values.to = query.to.trim();
  if (query.expiring && EXPIRING_WITHIN.includes(query.expiring)) values.expiring = query.expiring;
  if (query.consumer && normaliseUuid(query.consumer)) values.consumer = query.consumer;
  if (operator && query.partner && normaliseUuid(query.partner)) values.partner = query.partner;
  if (operator && query.mode && MODES.includes(query.mode)) values.mode = query.mode;
  // One consumer's policies are their history, test and live alike, unless a mode is chosen.
  else if (operator && values.consumer) values.mode = "all";
  return values;
}

/**
 * The policies the list's values select; a date the list commands refuse is refused here in their
 * words (400, naming from or to), a text too long to be anything "Find" looks for beside its box.
 * With `operator`, live business unless the mode says otherwise.
 */
export function policyFilters(values: Record<string, string>, operator = false, now = new Date()): PolicyFilters {
  const { from, to } = parseWith(dayFilter, { from: values.from, to: values.to });
  if ((values.q?.length ?? 0) > FIND_MAX_LENGTH)
    throw new CommandError(400, `Find takes at most ${FIND_MAX_LENGTH} characters: a policy number, a name, a phone, a plate or an IMEI`, "q");
  const consumerId = values.consumer ? normaliseUuid(values.consumer) : undefined;
  const partnerId = values.partner ? normaliseUuid(values.partner) : undefined;
  return {
    ...(consumerId ? { consumerId } : {}),
    ...(partnerId ? { partnerId } : {}),
    ...(values.q ? { text: values.q } : {}),
    ...(operator ? { mode: operatorMode(values) } : {}),
    status: values.status as PolicyFilters["status"],
    productCode: values.product,
    ...createdWithin(from, to),
    ...(values.expiring ? { coverEndsBy: { now, by: endOfWatDayAhead(now, Number(values.expiring)) } } : {}),
  };
}

/** The operator's mode: live business by default, so specimens never sit among it unasked. */
function operatorMode(values: Record<string, string>): PolicyFilters["mode"] {
  if (values.mode === "test") return "test";
  return values.mode === "all" ? undefined : "live";
}
