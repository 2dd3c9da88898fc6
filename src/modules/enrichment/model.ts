/** The seeds vehicle checks are asked for in (the portal's forms send the same fields). */
import { z } from "zod";

/** The seed of `enrch niid_vehicle`. */
export const registrySeed = z.object({
  search_type: z.enum(["registration", "policy"]).default("registration"),
  // Plates are matched without spaces and hyphens: one of only those ("- -") is empty once normalised
  // and matches nothing, so it is refused here, never sent to the registry (nor billed, nor retried).
  value: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(64)
    .refine(
      (value) => /[\p{L}\p{N}]/u.test(value),
      "must contain a letter or digit: a plate or policy number of only spaces, hyphens or punctuation matches no vehicle",
    ),
});

/** The seed of `enrch vin_vehicle`: validVin checks the VIN by hand to word each rule; the reference says the same of the seed. */
export const vinSeed = z.object({
  vin: z.string().length(17).meta({
    description: "17 letters and digits without I, O or Q, any case; for North American (1-5) and Chinese (L) VINs the check digit (position 9) must be right",
  }),
});
