import { z } from "zod";
import { nairaAmount, toKobo } from "../../core/money";
import { parseWith } from "../../core/validation";
import { wireValue } from "../../products/forms";

/** The seed of `wallet topup`; the portal's top-up form is validated by it too (same words). */
export const topUpSeed = z.strictObject({
  amount: nairaAmount(),
  reference: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 letters, digits, dots, hyphens or underscores"),
});

/** What a top-up asks for: money in kobo, once per reference. */
export interface TopUpRequest {
  amountKobo: number;
  reference: string;
}

export const topUpRequestFrom = (seed: z.output<typeof topUpSeed>): TopUpRequest => ({ amountKobo: toKobo(seed.amount), reference: seed.reference });

/** The top-up form as the `wallet topup` seed: the amount read like every portal number ("250,000", "₦1,500.50"). */
export const topUpSeedFrom = (values: Record<string, string | undefined>) =>
  parseWith(
    topUpSeed,
    { amount: wireValue({ kind: "number", path: "amount", label: "Amount" }, values.amount), reference: values.reference?.trim() || undefined },
    "seed",
  );
