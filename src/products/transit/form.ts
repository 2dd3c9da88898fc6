/** The portal's goods-in-transit forms (spec 2.4, 2.5); the cargo inputs are marine's. */
import { naira } from "../forms";
import { goodsDescriptionInput, proformaInputs, voyageInputs, voyageSeed } from "../marine/form";
import type { FormField, ProductForms } from "../types";
import { MAX_TRANSIT_VALUE_NAIRA } from "./pricing";

/**
 * Spec 2.5's goodsType codes and names. transit/policy.ts keeps its list private;
 * test/products/forms.test.ts pins these to the rules' list and the names they print.
 */
const GOODS_TYPES = [
  { value: "gnrl", label: "General merchandise" },
  { value: "elct", label: "Electronics" },
  { value: "frd", label: "Furniture" },
  { value: "txtl", label: "Clothing and textiles" },
  { value: "appl", label: "Domestic appliances" },
  { value: "fod", label: "Packaged foods" },
  { value: "bldg", label: "Building materials" },
  { value: "tool", label: "Tools" },
] as const;

const goodsValue = (path: string): FormField => ({
  kind: "number",
  path,
  label: "Declared value of the goods (₦)",
  required: true,
  hint: `More than ₦0, at most ${naira(MAX_TRANSIT_VALUE_NAIRA)} per transit.`,
});

const FORMS: ProductForms = {
  quote: [goodsValue("goodsValue")],
  policy: [
    { kind: "select", path: "addtnlFact.goodsType", label: "Type of goods", required: true, options: GOODS_TYPES },
    goodsDescriptionInput("Name the goods plainly, e.g. Laptops and phones. Excluded goods (gas cylinders, chemicals, perishables …) are declined."),
    goodsValue("addtnlFact.goodsValue"),
    ...voyageInputs({ label: "From (city)", hint: "e.g. Lagos" }, { label: "To (city)", hint: "Another city in Nigeria, e.g. Abuja." }),
    {
      kind: "datetime",
      path: "addtnlFact.dprtrDateTime",
      label: "Departure",
      required: true,
      hint: "Cover starts here (Nigerian time); goods already on the road cannot be insured.",
    },
    { kind: "datetime", path: "addtnlFact.estmtdArrvlDateTime", label: "Estimated arrival", required: true, hint: "After the departure; cover ends here." },
    ...proformaInputs,
  ],
  policySeed: voyageSeed,
};

export const transitForms = (): ProductForms => FORMS;
