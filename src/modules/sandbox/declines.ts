/**
 * What a sandbox decline says (statusNote), per product family: the family's own spec-7 decline
 * reason where the spec gives one, in the words its real rule uses, filled in from the policy's
 * own facts; a plain insurer refusal where the spec names none (travel, health, all risk, fire and
 * burglary). Vehicle and device ask their family's rule itself, with the underwriting fact that
 * makes it decline.
 */
import type { Product } from "../../products";
import { BORROWER_AGE } from "../../products/credit-life/parties";
import { printNairaFigure } from "../../products/shared";
import type { PolicyContext, PolicyTerms } from "../../products/types";

type Facts = Record<string, unknown>;
type DeclineNote = (product: Product, terms: PolicyTerms, context: PolicyContext) => string | null;

const text = (facts: Facts, key: string, fallback: string) => (typeof facts[key] === "string" && facts[key] ? (facts[key] as string) : fallback);
const figure = (facts: Facts, key: string) => (typeof facts[key] === "number" ? printNairaFigure(facts[key] as number) : "the amount given");
/** Partner text quoted in a note stays short. */
const quoted = (value: string) => `"${value.length > 80 ? `${value.slice(0, 79)}…` : value}"`;

const insurerRefusal = (what: string) => `Declined by the insurer: ${what} could not be accepted on the information given.`;

/** Spec 7 "vehicle details not matching national records", from the vehicle rule itself: the registry shows another make. */
const vehicle: DeclineNote = (product, terms, context) => {
  const facts = terms.facts;
  if (facts.proofOfOwnrsh !== undefined)
    return "Unclear proof of ownership: the document given in proofOfOwnrsh could not be read as the ownership of the insured vehicle; send a clear scan with a new request.";
  const make = text(facts, "brand", "");
  return product.family.policy.declineReason(product.type, terms, context, {
    deviceAlreadyInsured: false,
    vehicleRecord: {
      status: "found",
      details: {
        vehicle_make: make.toLowerCase() === "toyota" ? "Honda" : "Toyota",
        vehicle_model: text(facts, "model", ""),
        chassis_number: text(facts, "chsssId", ""),
      },
    },
  });
};

/** Spec 7 "device already insured", from the device rule itself. */
const device: DeclineNote = (product, terms, context) => product.family.policy.declineReason(product.type, terms, context, { deviceAlreadyInsured: true });

/** Spec 7 "marine goodsValue differing from the sum of item values". */
const cargo: DeclineNote = (_product, { facts }) =>
  `Marine goodsValue differs from the sum of item values: the insurer's check of proforma invoice ${text(facts, "proformaInvoice", "")} does not ` +
  `match goodsValue ${figure(facts, "goodsValue")} to the items listed.`;

/** Spec 7 "borrower outside insurable age band". */
const ageBand =
  `Borrower outside the insurable age band: the insurer's identity check places the borrower's age outside it; cover is for ages ` +
  `${BORROWER_AGE.minAtStart} to ${BORROWER_AGE.maxAtStart} when the loan starts and at most ${BORROWER_AGE.maxAtEnd} when it ends.`;

/** The sandbox's statusNote per product category (ctgry). */
const SANDBOX_DECLINES: Readonly<Record<string, DeclineNote>> = {
  vhcl: vehicle,
  phnn: device,
  lapt: device,
  gtrn: (_product, { facts }) =>
    `Goods in an excluded category: the insurer's inspection found gas cylinders among the goods ${quoted(text(facts, "goodsDscrptn", "declared"))}, ` +
    `which goods in transit cover excludes.`,
  mexx: cargo,
  mrnn: cargo,
  crlt: () => ageBand,
  lrgg: (_product, { facts }) =>
    `Loan guaranty amount differs between quote and issuance: LoanAmount ${figure(facts, "LoanAmount")} at issuance does not match the amount the ` +
    `insurer holds for the latest quote.`,
  ltix: (_product, { facts }) => insurerRefusal(`travel cover to ${text(facts, "destination", "the destination")}`),
  hlth: (_product, { facts }) => insurerRefusal(`the enrolment at ${text(facts, "hospital", "the hospital chosen")}`),
  allr: (_product, { facts }) => insurerRefusal(`the property described as ${quoted(text(facts, "description", "insured"))}`),
  firb: (_product, { facts }) => insurerRefusal(`the premises and property described as ${quoted(text(facts, "description", "insured"))}`),
};

/** The statusNote of a sandbox decline of this policy. */
export function sandboxDeclineNote(product: Product, terms: PolicyTerms, context: PolicyContext): string {
  return SANDBOX_DECLINES[product.family.ctgry]?.(product, terms, context) ?? insurerRefusal(`this ${product.productType.name.toLowerCase()} cover`);
}
