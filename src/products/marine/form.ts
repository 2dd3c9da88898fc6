/**
 * The portal's marine forms (spec 2.4, 2.5), and the cargo inputs goods in transit shares: the
 * goods description, the proforma invoice and the voyage's two ends.
 */
import { directorInputs } from "../credit-life/form";
import type { DirectorFields } from "../credit-life/parties";
import { durationSelect, naira } from "../forms";
import { MONTHLY_DURATIONS, requireType } from "../shared";
import type { FormField, ProductForms } from "../types";
import type { MarineCover } from "./pricing";

/** marine/policy.ts keeps its MAX_ITEMS private; test/products/forms.test.ts pins this to the rules' limit. */
const MAX_ITEMS = 100;
const DIRECTOR: DirectorFields = { name: "DrctrName", dob: "DrctrDob" };

export const goodsDescriptionInput = (hint: string): FormField => ({
  kind: "textarea",
  path: "addtnlFact.goodsDscrptn",
  label: "Description of the goods",
  required: true,
  hint,
});

export const proformaInputs: readonly FormField[] = [
  {
    kind: "text",
    path: "addtnlFact.proformaInvoice",
    label: "Proforma invoice number",
    required: true,
    hint: "The invoice's reference number, not a link; printed on the certificate.",
  },
  { kind: "date", path: "addtnlFact.proformaDate", label: "Proforma invoice date", required: true, hint: "Not in the future." },
];

/**
 * The voyage's origin and destination, named after their place in the wire's voyage array
 * (addtnlFact.voyage.0.origin), so a refusal about voyage[0].origin lands on its input;
 * `voyageSeed` turns them into the array.
 */
export const voyageInputs = (
  origin: Omit<FormField, "kind" | "path" | "required">,
  destination: Omit<FormField, "kind" | "path" | "required">,
): FormField[] => [
  { ...origin, kind: "text", path: "addtnlFact.voyage.0.origin", required: true },
  { ...destination, kind: "text", path: "addtnlFact.voyage.1.destination", required: true },
];

/** `policySeed` of the cargo forms: voyage {"0": {origin}, "1": {destination}} → [{origin}, {destination}]. */
export function voyageSeed(seed: Record<string, unknown>): Record<string, unknown> {
  const facts = seed.addtnlFact as Record<string, unknown> | undefined;
  if (!facts?.voyage) return seed;
  // Integer keys enumerate in ascending order, so the stops keep the inputs' order; a blank one is left out.
  return { ...seed, addtnlFact: { ...facts, voyage: Object.values(facts.voyage as Record<string, unknown>) } };
}

const duration = durationSelect(MONTHLY_DURATIONS);

/** Export and import ask the same; the cover's rate and minimum are in the hint. */
export function marineForms(ctgry: string, covers: readonly MarineCover[]): (type: string) => ProductForms {
  return (type) => {
    const cover = requireType(covers, ctgry, type);
    const goodsValue = (path: string, hint: string): FormField => ({ kind: "number", path, label: "Value of the goods (₦)", required: true, hint });
    return {
      quote: [goodsValue("goodsValue", `The premium is ${cover.ratePercent}% of it, at least ${naira(cover.minimumNaira)}.`), duration],
      policy: [
        duration,
        {
          kind: "group",
          path: "addtnlFact.items",
          label: "Items on the proforma invoice",
          itemLabel: "Item",
          min: 1,
          max: MAX_ITEMS,
          fields: [
            { kind: "text", path: "description", label: "Description", required: true, hint: "e.g. Cashew nuts" },
            { kind: "integer", path: "quantity", label: "Quantity", required: true, hint: "A whole number, at least 1." },
            { kind: "number", path: "value", label: "Value (₦)", required: true, hint: "The value of the whole line, not the unit price." },
          ],
        },
        goodsValue("addtnlFact.goodsValue", "The sum of the item values (a different total is declined); printed on the certificate."),
        goodsDescriptionInput("A brief description, printed on the certificate, e.g. Agricultural produce."),
        ...voyageInputs({ label: "Origin port", hint: "e.g. Lagos" }, { label: "Destination port", hint: "e.g. Rotterdam" }),
        ...proformaInputs,
        { kind: "date", path: "addtnlFact.coverStartDate", label: "Cover start date", hint: "Optional: today when blank; not in the past." },
        ...directorInputs(DIRECTOR, "For a company consumer only (leave blank for a person); a company without its director's details is declined."),
      ],
      policySeed: voyageSeed,
    };
  };
}
