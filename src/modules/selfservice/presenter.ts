import { coverPeriod, day } from "../../../views/format";
import type { ClaimCard, CoverCard, PolicyholderPage } from "../../../views/selfservice/page";
import type { ClaimLine, CoverLine } from "./service";

/** Where a policy stands, as its holder reads it (today: `now`). */
function coverStanding(c: CoverLine, now: Date): string {
  switch (c.status) {
    case "a":
      return c.coverStart > now ? `Starts on ${day(c.coverStart)}` : c.coverEnd > now ? "In force" : "Ended";
    case "p":
      return "Being checked by the insurer";
    case "d":
      return "Not accepted by the insurer";
    case "l":
      return "Lapsed: a payment was missed";
    case "c":
      return "Cancelled";
    case "e":
      return "Ended";
  }
}

/** Where a claim stands, in the claimant's words. */
const CLAIM_WORDS: Record<ClaimLine["status"], string> = {
  submitted: "Received: we will look at it soon",
  in_review: "Being looked at",
  info_requested: "We need more information from you",
  approved: "Approved: payment is on its way",
  rejected: "Not accepted",
  paid: "Paid",
  withdrawn: "Withdrawn",
};

const STEP_WORDS: Record<ClaimLine["status"], string> = {
  submitted: "claim received",
  in_review: "review started",
  info_requested: "more information asked for",
  approved: "approved",
  rejected: "not accepted",
  paid: "paid",
  withdrawn: "withdrawn",
};

export function policyholderPage(
  view: { name: string; brand: PolicyholderPage["brand"]; cover: CoverLine[]; claims: ClaimLine[] },
  expiresAt: Date,
  now: Date,
): PolicyholderPage {
  const cover: CoverCard[] = view.cover.map((c) => ({
    title: c.productName,
    policyNo: c.policyNo,
    standing: coverStanding(c, now),
    period: coverPeriod(c.coverStart, c.coverEnd),
    certificateUrl: c.certificateUrl,
    test: c.test,
  }));
  const claims: ClaimCard[] = view.claims.map((c) => ({
    claimNo: c.claimNo,
    policyNo: c.policyNo,
    standing: CLAIM_WORDS[c.status],
    // What the insurer said to the claimant (a request for information, a rejection's reason); an assessor's words are not in it.
    note: c.status === "info_requested" || c.status === "rejected" ? c.statusNote : null,
    claimedKobo: c.claimedKobo,
    payableKobo: c.payableKobo,
    steps: c.steps.map((s) => ({ words: STEP_WORDS[s.status as ClaimLine["status"]] ?? s.status, at: new Date(s.at) })),
  }));
  return { brand: view.brand, name: view.name, expiresAt, cover, claims };
}
