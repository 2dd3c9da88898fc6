import type { InsurerGateway } from "../policies/types";
import { sandboxDeclineNote } from "./declines";
import { magicReference } from "./references";

/**
 * The insurer of TEST-mode policies, which no insurer may see (spec 5.5): only a magic reference
 * (./references.ts) leaves a test policy pending with a time to decide it, and this answers what
 * that reference asked for. Anything else due is approved, as test mode approves.
 */
export const sandboxInsurer: InsurerGateway = {
  async underwrite(policy, { product, terms, policyContext }) {
    if (magicReference("test", policy.reference)?.later === "d") return { approve: false, reason: sandboxDeclineNote(product, terms, policyContext) };
    return { approve: true };
  },
};
