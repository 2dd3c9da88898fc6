/**
 * Why a claim may be rejected (issue 37, item 3; docs/claims.md, "Rejections"): a documented list,
 * so the regulator's view can count rejections by reason and every rejection letter states one.
 * The key is what the wire and the records carry; the words are what the partner, the letter and
 * the portal show.
 */
export const REJECTION_REASONS = {
  not_covered: "The loss is not covered by the terms of the policy",
  excluded_cause: "The cause of the loss is excluded by the policy",
  outside_cover: "The incident happened outside the period of cover",
  insufficient_evidence: "The documents sent do not establish the loss or its amount",
  misrepresentation: "Material facts were misrepresented or withheld",
  duplicate: "The same loss was already claimed",
  late_notification: "The loss was notified later than the policy's conditions allow",
  within_excess: "The loss is within the policy's excess",
  not_in_force: "The policy was not in force when the loss happened",
  other: "Another reason, given in the note",
} as const;

export type RejectionReason = keyof typeof REJECTION_REASONS;

export const REJECTION_REASON_KEYS = Object.keys(REJECTION_REASONS) as [RejectionReason, ...RejectionReason[]];

/** A rejected claim's status note: the reason in words, then the particulars the administrator gave. */
export const rejectionNote = (reason: RejectionReason, note: string | undefined) =>
  reason === "other" && note ? note : `${REJECTION_REASONS[reason]}${note ? `: ${note}` : ""}`;
