/**
 * The portal's credit life forms (spec 2.4, 2.5), and the loan inputs loan guaranty and marine
 * share: the loan's dates and an organisation's director. There is no lenderName input: it must
 * not be sent (the partner account's name is used).
 */
import { naira } from "../forms";
import { requireType } from "../shared";
import type { FormField, ProductForms } from "../types";
import type { DirectorFields } from "./parties";
import { MEDICAL_CLEARANCE_KOBO } from "./policy";
import { CREDIT_COVERS } from "./pricing";

export const directorInputs = (fields: DirectorFields, hint: string): FormField[] => [
  { kind: "text", path: `addtnlFact.${fields.name}`, label: "Director's full name", hint },
  { kind: "date", path: `addtnlFact.${fields.dob}`, label: "Director's date of birth", hint },
];

/** The loan's own period is the cover; each family has its own wire names for the three dates. */
export const loanDateInputs = (fields: { disbursed: string; start: string; end: string }): FormField[] => [
  { kind: "date", path: `addtnlFact.${fields.disbursed}`, label: "Disbursement date", required: true, hint: "The day the loan was paid out." },
  {
    kind: "date",
    path: `addtnlFact.${fields.start}`,
    label: "Loan start date",
    required: true,
    hint: "The disbursement date: cover starts when the money is paid out.",
  },
  {
    kind: "date",
    path: `addtnlFact.${fields.end}`,
    label: "Loan end date",
    required: true,
    hint: "Cover ends on this date; an end before the start is declined.",
  },
];

const CLEARANCE_THRESHOLD = naira(MEDICAL_CLEARANCE_KOBO / 100);

// Credit life money is kobo on the wire (spec 2.4); people type naira and the form converts.
const loanAmount = (path: string): FormField => ({
  kind: "number",
  path,
  label: "Loan amount (₦)",
  wireUnit: "kobo",
  required: true,
  hint: `In naira. From ${CLEARANCE_THRESHOLD} the borrower needs a medical test clearance.`,
});

export function creditLifeForms(type: string): ProductForms {
  const cover = requireType(CREDIT_COVERS, "crlt", type);
  const companyOnly = "For a company borrower only (leave blank for a person)";
  return {
    quote: [loanAmount("loanAmount")],
    policy: [
      loanAmount("addtnlFact.loanAmount"),
      {
        kind: "number",
        path: "addtnlFact.loanTenure",
        label: "Loan tenure (months)",
        required: true,
        hint: "More than 0; a part month as a decimal, e.g. 1.5.",
      },
      ...loanDateInputs({ disbursed: "disbursementDate", start: "loanStartDate", end: "loanEndDate" }),
      ...directorInputs(
        { name: "directorName", dob: "directorDob" },
        cover.code === "sme1" ? `${companyOnly}; an SME loan to a company is declined without them.` : `${companyOnly}.`,
      ),
      {
        kind: "select",
        path: "addtnlFact.medicalTestClearance",
        label: "Medical test clearance",
        options: [{ value: "true", label: "Yes: the borrower's medical test is cleared" }],
        hint: `Required for a loan of ${CLEARANCE_THRESHOLD} or more; leave blank below that.`,
      },
    ],
  };
}
