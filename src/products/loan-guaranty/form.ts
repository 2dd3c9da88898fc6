/** The portal's loan guaranty forms (spec 2.4, 2.5): the capitalised wire names, naira and whole months. */
import { directorInputs, loanDateInputs } from "../credit-life/form";
import type { FormField, ProductForms } from "../types";

const loan = (prefix: string): FormField[] => [
  {
    kind: "number",
    path: `${prefix}LoanAmount`,
    label: "Loan amount (₦)",
    required: true,
    hint: "Issue with the amount quoted: a different amount is declined.",
  },
  { kind: "integer", path: `${prefix}LoanTenure`, label: "Loan tenure (months)", required: true, hint: "Whole months, at least 1." },
];

const FORMS: ProductForms = {
  quote: loan(""),
  policy: [
    ...loan("addtnlFact."),
    ...loanDateInputs({ disbursed: "DsbrsmDate", start: "LoanStartDate", end: "LoanEndDate" }),
    ...directorInputs({ name: "DrctrName", dob: "DrctrDob" }, "For a company borrower only (leave blank for a person)."),
  ],
};

export const loanGuarantyForms = (): ProductForms => FORMS;
