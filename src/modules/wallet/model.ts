import { z } from "zod";
import { nairaAmount } from "../../core/money";

/** The seed of `wallet topup`; the portal's top-up form is validated by it too (same words). */
export const topUpSeed = z.strictObject({
  amount: nairaAmount(),
  reference: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "must be 1-64 letters, digits, dots, hyphens or underscores"),
});
