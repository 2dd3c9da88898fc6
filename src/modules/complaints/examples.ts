/**
 * The examples of the complaint commands (CommandExample, src/http/registry.ts): the requests and
 * answers of /docs and /openapi.json, which test/reference.test.ts sends to the app.
 */
import { type CommandExample, refusal } from "../../http/registry";

export const NO_WAY_TO_REACH = refusal(400, "seed.complainant.email or seed.complainant.phone is required: a way to reach the complainant");
export const UNKNOWN_COMPLAINT = refusal(404, "no complaint <complaintNo> among this partner's complaints");

const complainant = { name: "Ngozi Eze", email: "ngozi.eze@example.com", phone: "+2348031234567" };
const delay = {
  complainant,
  category: "claim_delay",
  description: "My claim for the bumper was submitted weeks ago and nobody has called me back.",
  claimNo: "{{claim.claimNo}}",
  reference: "cmp-ref-001",
};
const clock = { receivedOn: "{{today}}", acknowledgeDue: "{{workingDay}}", resolveDue: "{{today+14}}" };

/** complaint file */
export const complaintFileExamples: readonly CommandExample[] = [
  {
    name: "complaint",
    title: "A complaint about the delay of a claim (the claim brings its policy)",
    cmmnd: "complaint file",
    seed: delay,
    answer: {
      complaintNo: "{{complaintNo}}",
      reference: "cmp-ref-001",
      status: "received",
      category: "claim_delay",
      policyNo: "{{policy.policyNo}}",
      claimNo: "{{claim.claimNo}}",
      ...clock,
      tmstmp: "{{timestamp}}",
    },
  },
  {
    name: "complaint-repeat",
    title: "The same complaint sent again: the first one answers",
    cmmnd: "complaint file",
    seed: delay,
    after: ["complaint"],
    answer: {
      complaintNo: "{{complaint.complaintNo}}",
      reference: "cmp-ref-001",
      status: "received",
      category: "claim_delay",
      policyNo: "{{policy.policyNo}}",
      claimNo: "{{claim.claimNo}}",
      ...clock,
      tmstmp: "{{complaint.tmstmp}}",
    },
  },
  {
    name: "complaint-no-policy",
    title: "A complaint of someone who holds no policy (about how a policy was sold to them)",
    cmmnd: "complaint file",
    seed: {
      complainant: { name: "Tunde Bakare", phone: "+2348059876543" },
      category: "mis_selling",
      description: "I was told the cover included theft, but the agent's leaflet says it does not.",
    },
    answer: { complaintNo: "{{complaintNo}}", status: "received", category: "mis_selling", ...clock, tmstmp: "{{timestamp}}" },
  },
  {
    name: "complaint-unreachable",
    title: "No e-mail and no phone to answer the complainant on",
    cmmnd: "complaint file",
    seed: { complainant: { name: "Tunde Bakare" }, category: "other", description: "The office was closed when it should have been open." },
    refusal: NO_WAY_TO_REACH,
  },
];

/** complaint status */
export const complaintStatusExamples: readonly CommandExample[] = [
  {
    name: "complaint-status",
    title: "The complaint just filed",
    cmmnd: "complaint status",
    seed: { complaintNo: "{{complaint.complaintNo}}" },
    answer: {
      complaintNo: "{{complaint.complaintNo}}",
      reference: "cmp-ref-001",
      status: "received",
      category: "claim_delay",
      policyNo: "{{policy.policyNo}}",
      claimNo: "{{claim.claimNo}}",
      ...clock,
      tmstmp: "{{complaint.tmstmp}}",
      complainant,
      description: delay.description,
      history: [{ status: "received", at: "{{complaint.tmstmp}}" }],
      notes: [],
      documents: [],
      updated: "{{complaint.tmstmp}}",
    },
  },
  {
    name: "complaint-status-unknown",
    title: "A complaint number that is not this partner's",
    cmmnd: "complaint status",
    seed: { complaintNo: "CMP-2026-0000000000" },
    refusal: UNKNOWN_COMPLAINT,
  },
];
