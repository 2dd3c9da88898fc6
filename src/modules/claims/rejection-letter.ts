/**
 * The letter of a rejection (issue 37, item 3; docs/claims.md, "Rejections"): the claim, the reason
 * from the documented list in words, the administrator's particulars, and what the claimant may do
 * next. Rendered on first need from what the claim keeps, stored, and served from here ever after.
 */
import { and, eq } from "drizzle-orm";
import { day } from "../../../views/format";
import { CommandError } from "../../core/errors";
import { formatNaira } from "../../core/money";
import type { Executor } from "../../db/client";
import { productName } from "../../products";
import { renderLetter } from "./letter-pdf";
import { REJECTION_REASONS } from "./rejections";
import { claimLetters } from "./schema";
import type { ClaimRecord } from "./service";
import { insuredOf } from "./voucher";

/** The rejection letter of a rejected claim, as PDF bytes (404 while it is not rejected). */
export async function rejectionLetter(db: Executor, claim: ClaimRecord, insurerName: string): Promise<Uint8Array> {
  if (claim.status !== "rejected") throw new CommandError(404, `claim ${claim.claimNo} is ${claim.status}: only a rejected claim has a rejection letter`);
  const [kept] = await db
    .select({ content: claimLetters.content })
    .from(claimLetters)
    .where(and(eq(claimLetters.claimId, claim.id), eq(claimLetters.kind, "rejection")));
  if (kept) return kept.content;
  const insured = await insuredOf(db, claim);
  const rejected = [...claim.history].reverse().find((step) => step.status === "rejected");
  const reason = claim.rejectionReason ? REJECTION_REASONS[claim.rejectionReason] : null;
  const content = await renderLetter({
    title: "Your claim was not accepted",
    from: insurerName,
    subtitle: `Claim ${claim.claimNo} · ${day(rejected ? new Date(rejected.at) : claim.updatedAt)}`,
    sections: [
      {
        rows: [
          ["Insured", insured.name],
          ["Policy", insured.policyNo ?? claim.policy],
          ["Cover", productName(claim.productCode)],
          ["Incident", day(claim.incidentDate)],
          ["Amount claimed", formatNaira(claim.claimedKobo)],
        ],
      },
      {
        heading: "Why",
        paragraphs: [
          `Dear ${insured.name},`,
          `We have assessed your claim and are unable to accept it. ${reason ? `${reason}.` : ""}`,
          ...(rejected?.note ? [rejected.note] : []),
        ],
      },
      {
        heading: "What you may do",
        paragraphs: [
          "If you have information or documents we did not see, send them through the company you bought the policy from, quoting the claim number, and we will look at the claim again.",
          `If you are not satisfied with this decision you may complain to ${insurerName}, and then to the National Insurance Commission (NAICOM), whose complaints desk takes complaints about insurers.`,
        ],
      },
    ],
    footer: `This letter states the decision on claim ${claim.claimNo} as recorded on ${day(claim.updatedAt)}.`,
  });
  // Two first readers at once: one letter is kept, and both serve it.
  await db.insert(claimLetters).values({ claimId: claim.id, kind: "rejection", content, createdAt: new Date() }).onConflictDoNothing();
  return content;
}
