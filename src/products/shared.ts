/**
 * Small helpers every product family shares: duration codes, money rounding, the
 * "unknown type" refusal and the consumer name field. Rates and tables stay in each family.
 */
import { z } from "zod";
import { badRequest } from "../core/errors";
import { getOrMake } from "../core/maps";
import { formatNaira } from "../core/money";
import type { CancellationRule } from "./cancellation";
import type {
  ClaimRule,
  ConsumerClass,
  EndorsementRule,
  Insurer,
  PolicyRules,
  PremiumUnit,
  ProductFamily,
  ProductForms,
  ProductSchemas,
  ProductType,
  Quote,
} from "./types";

/** Every insrncDrtn code the service knows (spec 8, "Durations allowed"). */
export type DurationCode = "7d" | "15d" | "25d" | "30d" | "45d" | "62d" | "92d" | "1m" | "3m" | "6m" | "12m" | "1y";

/** The calendar-month durations used by marine, health and property. */
export const MONTHLY_DURATIONS = ["1m", "3m", "6m", "1y"] as const;
export type MonthlyDuration = (typeof MONTHLY_DURATIONS)[number];

/** Months of cover per monthly duration, for pro-rating annual rates. */
export const MONTHS_COVERED: Readonly<Record<MonthlyDuration, number>> = { "1m": 1, "3m": 3, "6m": 6, "1y": 12 };

/**
 * A required insrncDrtn restricted to the durations a product allows. The string check comes
 * first so a missing field reads "is required" rather than "must be one of …; received undefined".
 */
const durationSchemas = new WeakMap<readonly DurationCode[], z.ZodType>();
/** Built once per list of durations: issuance asks for it on every request. */
export const durationField = <const D extends readonly [DurationCode, ...DurationCode[]]>(allowed: D) => {
  return getOrMake(durationSchemas, allowed, () => z.string().pipe(z.enum(allowed))) as z.ZodPipe<z.ZodString, z.ZodEnum<{ [K in D[number]]: K }>>;
};

/**
 * Round half up to a whole unit. Money arrives as floats (naira with kobo fractions, rates
 * like 0.85%), so strip binary noise first: 1.005 * 100 must round to 101, not 100.
 */
export function roundHalfUp(value: number): number {
  return Math.round(Number(value.toPrecision(15)));
}

/** A naira figure (possibly with kobo fractions) as pages and reasons print money: ₦1,500,000.00. */
export const printNairaFigure = (naira: number): string => formatNaira(roundHalfUp(naira * 100));

/** `percent` % of `amount`, unrounded (callers round once, at the end). */
export function percentOf(amount: number, percent: number): number {
  return (amount * percent) / 100;
}

/** A naira figure as integer kobo, rounded to whole naira first (naira products quote whole naira). */
export function wholeNairaInKobo(naira: number): number {
  return roundHalfUp(naira) * 100;
}

/** Refuse a type the family does not sell, in the spec's words (section 7). */
export function requireType<T extends ProductType>(types: readonly T[], ctgry: string, type: string): T {
  const found = types.find((t) => t.code === type);
  if (!found) throw badRequest(`product specified not supported: ${ctgry} has no type "${type}"`);
  return found;
}

/** An individual is named by name.first; an organisation by name.brand (spec 2.3). */
export function nameField(consumerClass: ConsumerClass): string {
  return consumerClass === "o" ? "name.brand" : "name.first";
}

/** Who, how to reach them, age, sex and where they live: what travel and health enrol a person with (not spec 2.3 for health). */
export function personRequirements(consumerClass: ConsumerClass): readonly string[] {
  return [nameField(consumerClass), "phoneNo", "eMail", "gender", "dob.date", "addrss.addrss"];
}

/** Facts only a person has: an organisation consumer is never asked for them. */
const PERSONAL_FACTS: ReadonlySet<string> = new Set(["gender", "dob.date"]);

/** The spec's field list for a family, less the personal facts when the consumer is an organisation. */
export function requiredFor(consumerClass: ConsumerClass, fields: readonly string[]): readonly string[] {
  return consumerClass === "o" ? fields.filter((f) => !PERSONAL_FACTS.has(f)) : fields;
}

/** A family as written by its folder: each rule takes the type's catalogue entry, already checked. */
interface FamilyRules<T extends ProductType> {
  ctgry: string;
  name: string;
  types: readonly T[];
  /** Naira unless the family says otherwise. */
  premiumUnit?: PremiumUnit;
  quote(type: T, seed: unknown): Quote;
  consumerRequirements(type: T, consumerClass: ConsumerClass): readonly string[];
  policy: PolicyRules;
  cancellation: CancellationRule;
  claims: ClaimRule<NoInfer<T>>;
  /** The underwriter of every type, or of each type (health: the type is the insurer). */
  insurer: Insurer | ((type: T) => Insurer);
  endorsement?: EndorsementRule;
  forms(type: string): ProductForms;
  schemas(type: T): ProductSchemas;
}

/** A ProductFamily whose quote, requirements, claim ceiling and schemas first refuse a type it does not sell (requireType). */
export function productFamily<T extends ProductType>(rules: FamilyRules<T>): ProductFamily {
  const { ctgry, name, types, premiumUnit = "naira", policy, cancellation, claims, endorsement, forms } = rules;
  const typeOf = (type: string) => requireType(types, ctgry, type);
  return {
    ctgry,
    name,
    types,
    premiumUnit,
    quote: (type, seed) => rules.quote(typeOf(type), seed),
    consumerRequirements: (type, consumerClass) => rules.consumerRequirements(typeOf(type), consumerClass),
    policy,
    cancellation,
    claims: { ...claims, ceiling: (type, policy) => claims.ceiling(typeOf(type), policy), documents: (type) => claims.documents(typeOf(type)) },
    insurer: (type) => (typeof rules.insurer === "function" ? rules.insurer(typeOf(type)) : rules.insurer),
    ...(endorsement ? { endorsement } : {}),
    forms,
    schemas: (type) => rules.schemas(typeOf(type)),
  };
}
