/**
 * Naira on the wire, kobo inside: the one money parser every amount goes through (top-ups, claims,
 * financing, insured values, on the JSON surface and in the portal's forms). A naira amount is a
 * finite JSON number with at most two decimals as written, more than 0 (or 0 where a field allows
 * it) and at most a ceiling; it becomes integer kobo from its decimal digits, never by multiplying
 * a float (1.1 naira is 110 kobo, 0.29 is 29).
 */
import { z } from "zod";

/** The largest amount of money that moves (a top-up, a claim, a payment): one billion naira. */
export const MAX_NAIRA = 1_000_000_000;
/** The largest value insured (a sum insured, goods, a loan): one trillion naira, still exact in kobo. */
export const MAX_INSURED_NAIRA = 1_000_000_000_000;

export interface MoneyRule {
  /** A down payment may be nothing; every other amount must be more than 0. */
  zero?: "allowed" | "refused";
  /** Naira; MAX_NAIRA unless said. */
  max?: number;
}

/**
 * `naira` in kobo, or why it is no amount of money (worded to follow the field's name, as
 * describeIssue words zod's own bounds). The number's shortest decimal form (`String`) is what
 * was written: 0.30000000000000004 keeps its 17 decimals, and numbers under 1e-6 print in
 * exponent form (5e-324, 1e-7), so they have more than two decimals too.
 */
export function nairaToKobo(naira: number, { zero = "refused", max = MAX_NAIRA }: MoneyRule = {}): { kobo: number } | { problem: string } {
  if (!Number.isFinite(naira)) return { problem: "must be a finite number of naira" };
  if (naira < 0 || (naira === 0 && zero === "refused")) return { problem: `must be ${zero === "allowed" ? "at least" : "more than"} 0; received ${naira}` };
  if (naira > max) return { problem: `must be at most ${max}; received ${naira}` };
  const written = String(naira);
  const [whole, fraction = ""] = written.split(".");
  if (written.includes("e") || fraction.length > 2) return { problem: `must have at most two decimals (kobo); received ${written}` };
  return { kobo: Number(whole) * 100 + Number(fraction.padEnd(2, "0")) };
}

/** A naira amount field. Its output stays naira, as the wire and the answers say it; `toKobo` gives the kobo services take. */
export const nairaAmount = (rule: MoneyRule = {}) =>
  z.number().superRefine((naira, ctx) => {
    const parsed = nairaToKobo(naira, rule);
    if ("problem" in parsed) ctx.addIssue({ code: "custom", message: parsed.problem });
  });

/** An amount `nairaAmount` accepted, as kobo. */
export function toKobo(naira: number): number {
  const parsed = nairaToKobo(naira, { zero: "allowed", max: MAX_INSURED_NAIRA });
  if ("problem" in parsed) throw new Error(`toKobo of an amount no seed accepts: ${naira} ${parsed.problem}`);
  return parsed.kobo;
}

/** Kobo as the naira the wire and the events show (a JSON number; exact, kobo being whole). */
export const toNaira = (kobo: number): number => kobo / 100;

const nairaFormat = new Intl.NumberFormat("en-NG", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** ₦15,000.00 from kobo: the one way pages, certificates and decline reasons write an amount. */
export const formatNaira = (kobo: number) => `${kobo < 0 ? "−" : ""}₦${nairaFormat.format(Math.abs(kobo) / 100)}`;
