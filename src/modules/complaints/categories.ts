/** What a complaint is about: the documented list (docs/complaints.md, "Categories"), in the words the pages and the report use. */
export const COMPLAINT_CATEGORIES = {
  claim_handling: "Claim handling",
  claim_delay: "Claim delay",
  mis_selling: "Policy sale or mis-selling",
  cancellation_refund: "Cancellation or refund",
  premium_billing: "Premium or billing",
  service_conduct: "Service or staff conduct",
  data_protection: "Data protection",
  other: "Other",
} as const;

export type ComplaintCategory = keyof typeof COMPLAINT_CATEGORIES;
export const COMPLAINT_CATEGORY_KEYS = Object.keys(COMPLAINT_CATEGORIES) as [ComplaintCategory, ...ComplaintCategory[]];

/** The outcomes of a resolution in words. */
export const COMPLAINT_OUTCOME_WORDS = { upheld: "Upheld", partly_upheld: "Partly upheld", not_upheld: "Not upheld" } as const;

/** The statuses in words. */
export const COMPLAINT_STATUS_WORDS = {
  received: "Received",
  acknowledged: "Acknowledged",
  in_progress: "In progress",
  resolved: "Resolved",
  withdrawn: "Withdrawn",
} as const;
