/** The wire pieces of the commands that address one policy (status, appr, and the lifecycle's cncl and refund quote). */
import { z } from "zod";
import { refusal } from "../../core/registry";
import { POLICY_STATUSES } from "./schema";
import type { PolicyAddress } from "./service";

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
