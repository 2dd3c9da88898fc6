/** The quotes' wire seed (the hospitals list) and the quote-and-issue form's reading into seeds. */
import { z } from "zod";
import type { Product } from "../../products";
import { policySeedFromForm, seedFromForm } from "../../products/forms";

/** `dump hlth_*HSPTLS`: optionally one insurer's network. */
export const hospitalSeed = z.object({
  insurer: z
    .string()
    .regex(/^[a-z0-9]{2,8}$/, "must be an insurer code such as axam")
    .optional(),
});

type FormValues = Record<string, string | undefined>;

/** Quote fields the policy form repeats (travel must match its quote): carried over when left blank. */
function withQuoteValues(values: FormValues) {
  const carried = { ...values };
  for (const [name, value] of Object.entries(values)) {
    const policyName = `addtnlFact.${name}`;
    if (value && !name.includes(".") && name !== "insrncDrtn" && carried[policyName] === undefined) carried[policyName] = value;
  }
  return carried;
}

/** The quote seed the form's quote inputs make. */
export const quoteSeedFromForm = (product: Product, values: FormValues) => seedFromForm(product.family.forms(product.type).quote, values);

/** The quote-and-issue form as the two seeds it stands for: the quote's, and the policy's fields beside its product. */
export function issueSeedsFromForm(product: Product, values: FormValues) {
  const productSeed = policySeedFromForm(product.family.forms(product.type), withQuoteValues(values));
  const addtnlFact = {
    ...(productSeed.addtnlFact as Record<string, unknown>),
    ...(values.webHook?.trim() ? { webHook: values.webHook.trim() } : {}),
  };
  return { quoteSeed: quoteSeedFromForm(product, values), policySeed: { id: values.id?.trim() ?? "", ...productSeed, addtnlFact } };
}
