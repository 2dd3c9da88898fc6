/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { insureSeedVariants } from "./insure-seeds";
export { createdWithin, insureSeed, listSeed, policyFieldsSeed, policyFilters, policyFilterValues, reviewForm, reviewSeed, webHookUrl } from "./model";
export { normaliseReference, transactionReference } from "./reference";
export {
  awaitingRegistry,
  type FactChange,
  POLICY_STATUSES,
  type PolicyStatus,
  policies,
  policyCancellations,
  policyEndorsements,
  policyPlate,
} from "./schema";
export {
  addressConditions,
  type CancellationRecord,
  cancellationOf,
  consumerIdFrom,
  countPolicies,
  type EndorsementRecord,
  endorsementsOf,
  findPolicy,
  findPolicyByCertificateToken,
  findPolicyByNumber,
  findPolicyByReference,
  hasCertificate,
  insuredName,
  latestQuote,
  listPolicies,
  newPolicyNumber,
  notFoundAt,
  POLICY_STATUS_WORDS,
  type PolicyAddress,
  type PolicyFilters,
  policiesByIds,
  policyContext,
  policyHeading,
  policyName,
  policyTextMatch,
  policyTitle,
  requirePolicyMode,
  resentFacts,
  statusEvent,
  storedTerms,
} from "./service";
export type { InsurerGateway, Mode, PolicyRecord } from "./types";
export { addressOf, endorsementShape, POLICY_ADDRESS, POLICY_UNKNOWN, policyStatus, statusNote, storedReference, wireEndorsement } from "./wire";
