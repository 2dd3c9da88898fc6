import type { Product } from "../../products";
import type { PolicyContext, PolicyTerms, UnderwritingFacts } from "../../products/types";
import type { policies } from "./schema";

/** A stored policy, as every module reads it. */
export type PolicyRecord = typeof policies.$inferSelect;

export type { Mode } from "../../core/principal";

/** The insurer's answer about one policy. A real insurer plugs in behind this interface. */
type InsurerDecision = { approve: true } | { approve: false; reason: string };

/** The insurer that underwrites live policies (the sandbox's, in ./underwriting.ts, and simulatedInsurer implement it). */
export interface InsurerGateway {
  underwrite(
    policy: PolicyRecord,
    context: { product: Product; terms: PolicyTerms; policyContext: PolicyContext; facts: UnderwritingFacts },
  ): Promise<InsurerDecision>;
}
