import { z } from "zod";
import { nairaAmount, toKobo } from "../../core/money";
import { parseWith } from "../../core/validation";
import { wireValue } from "../../products/forms";
import type { ManualConfirmation } from "./confirmations";

/** An administrator's confirmation of a bank transfer by hand: the bank's reference and what arrived. */
const confirmationForm = z.strictObject({
  bankReference: z.string().regex(/^[A-Za-z0-9._/-]{4,64}$/, "must be 4-64 letters, digits, dots, slashes, hyphens or underscores"),
  amount: nairaAmount(),
});

/** The confirmation form, its amount read like every portal number ("250,000", "₦1,500.50"). */
export function confirmationFrom(values: Record<string, string | undefined>): ManualConfirmation {
  const parsed = parseWith(
    confirmationForm,
    {
      bankReference: values.bankReference?.trim() || undefined,
      amount: wireValue({ kind: "number", path: "amount", label: "Amount" }, values.amount),
    },
    "",
  );
  return { bankReference: parsed.bankReference, amountKobo: toKobo(parsed.amount) };
}
