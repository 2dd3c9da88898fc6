/**
 * The resolution letter of a complaint (docs/complaints.md, "The resolution letter"): what the
 * complaint was, what was found, the redress, and where the complainant may go next; drawn by the
 * claims' letter builder when the complaint is resolved and kept with it.
 */
import { day } from "../../../views/format";
import { formatNaira } from "../../core/money";
import { productName } from "../../products";
import { renderLetter } from "../claims";
import { COMPLAINT_CATEGORIES, COMPLAINT_OUTCOME_WORDS } from "./categories";
import type { ComplaintRecord } from "./service";

const FINDINGS = {
  upheld: "We have looked into your complaint and we uphold it: you were right to complain.",
  partly_upheld: "We have looked into your complaint and we uphold it in part.",
  not_upheld: "We have looked into your complaint carefully and we do not uphold it.",
} as const;

export function resolutionLetter(complaint: ComplaintRecord, insurerName: string): Promise<Uint8Array> {
  const outcome = complaint.outcome ?? "not_upheld";
  const redress = complaint.redressKobo ?? 0;
  return renderLetter({
    title: "The outcome of your complaint",
    from: insurerName,
    subtitle: `Complaint ${complaint.complaintNo} · ${day(complaint.closedAt ?? complaint.updatedAt)}`,
    sections: [
      {
        rows: [
          ["Complainant", complaint.complainantName],
          ["Received", day(complaint.receivedOn)],
          ["About", COMPLAINT_CATEGORIES[complaint.category]],
          ...(complaint.policyNo || complaint.policyReference ? ([["Policy", complaint.policyNo ?? complaint.policyReference!]] as const) : []),
          ...(complaint.productCode ? ([["Cover", productName(complaint.productCode)]] as const) : []),
          ...(complaint.claimNo ? ([["Claim", complaint.claimNo]] as const) : []),
          ["Outcome", COMPLAINT_OUTCOME_WORDS[outcome]],
          ["Redress", redress > 0 ? formatNaira(redress) : "None"],
        ],
      },
      {
        heading: "What we found",
        paragraphs: [`Dear ${complaint.complainantName},`, FINDINGS[outcome], ...(complaint.resolution ? [complaint.resolution] : [])],
      },
      ...(redress > 0 ? [{ heading: "Redress", paragraphs: [`We will pay you ${formatNaira(redress)} in settlement of your complaint.`] }] : []),
      {
        heading: "If you are not satisfied",
        paragraphs: [
          `If you are not satisfied with this outcome you may take your complaint to the National Insurance Commission (NAICOM), whose complaints desk hears complaints about insurers. Quote the complaint number ${complaint.complaintNo}.`,
        ],
      },
    ],
    footer: `This letter states the outcome of complaint ${complaint.complaintNo} as recorded on ${day(complaint.closedAt ?? complaint.updatedAt)}.`,
  });
}
