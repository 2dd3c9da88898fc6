/** The wire pieces of the commands that address one policy (status, appr, and the lifecycle's cncl and refund quote), and a change as they show it. */
import { z } from "zod";
import { toNaira as naira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import { wireTimestamp } from "../../http/answers";
import { refusal } from "../../http/registry";
import { ENDORSEMENT_STATUSES, POLICY_STATUSES } from "./schema";
import type { EndorsementRecord, PolicyAddress } from "./service";

/** The policy address of the status, appr and lifecycle commands: entt_<consumer_id>|insr_<product_code>-<tx_id>. */
export const POLICY_ADDRESS = String.raw`entt_(?<consumerParam>[^|\s]+)\|insr_(?<productCode>[a-z0-9]+-[a-z0-9]+-[0-9]+)-(?<reference>[^*\s]+)`;

export const addressOf = (params: Record<string, string>): PolicyAddress => ({
  consumerParam: params.consumerParam!,
  productCode: params.productCode!,
  reference: params.reference!,
});

export const policyStatus = z
  .enum(POLICY_STATUSES)
  .meta({ description: "p pending, a approved, d declined, l lapsed (a financed policy whose plan lapsed), c cancelled, e expired (docs/lifecycle.md)" });
export const statusNote = z.string().optional().meta({ description: "Why: present when declined, lapsed or cancelled" });

export const storedReference = z
  .string()
  .meta({ description: "The transaction reference as stored (a UUID hyphenated and lower-case): the <tx_id> of later commands" });

export const POLICY_UNKNOWN = refusal(404, "no policy <tx_id> of product <product_code> for consumer <consumer_id>", "also another partner's policy");

/** A change as answers, events and STATUS show it (wireEndorsement). */
export const endorsementShape = z.object({
  id: z.string().meta({ description: "Your reference for the change" }),
  status: z.enum(ENDORSEMENT_STATUSES).meta({ description: "applied: in force now; pending: an administrator decides; declined: see statusNote" }),
  statusNote: z.string().optional(),
  version: z.int().optional().meta({ description: "The certificate version it made, once applied (issuance is version 1)" }),
  changes: z
    .array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() }))
    .meta({ description: "Each changed addtnlFact field, before and after" }),
  premiumChange: z.number().meta({ description: "Naira charged to the wallet (positive) or given back (negative) for the cover still to run (live policies)" }),
  explanation: z.string().meta({ description: "The pro-rata arithmetic in words" }),
  tmstmp: wireTimestamp,
});

/** A change as answers and events show it. */
export const wireEndorsement = (e: EndorsementRecord) => ({
  id: e.reference,
  status: e.status,
  ...(e.statusNote ? { statusNote: e.statusNote } : {}),
  ...(e.version ? { version: e.version } : {}),
  changes: e.changes,
  premiumChange: naira(e.premiumChangeKobo),
  explanation: e.explanation,
  tmstmp: watTimestamp(e.createdAt),
});
