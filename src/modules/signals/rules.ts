/**
 * The fraud rules (issue 37, item 6; docs/claims.md, "Fraud signals"): no database, each a key, a
 * score and what it saw. They flag a claim for a closer look and never decide it; a claim whose
 * flags reach the review score needs a second reviewer.
 */
import { watToday } from "../../products/policy-helpers";
import { daysBetween } from "../calendar";
import type { PhotoDate } from "./exif";

/** What a claim is known by beyond itself: the insured item, the claimant, where the money goes. */
export const IDENTIFIER_KINDS = ["imei", "serial", "vin", "plate", "bank_account", "phone", "email", "national_id", "consumer"] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

/** The item or account a cross-policy rule compares, and the kinds of identifier that name it. */
const SHARED_ITEMS = {
  same_device: ["imei", "serial"],
  same_vehicle: ["vin", "plate"],
  same_bank_account: ["bank_account"],
} as const satisfies Record<string, readonly IdentifierKind[]>;
type SharedRule = keyof typeof SHARED_ITEMS;

/** Who is claiming: an earlier claim by any of these is the claimant's. */
const CLAIMANT_KINDS: readonly IdentifierKind[] = ["consumer", "phone", "email", "national_id"];

export const RULE_KEYS = ["same_device", "same_vehicle", "same_bank_account", "early_claim", "photo_date", "at_ceiling", "earlier_claims"] as const;
export type RuleKey = (typeof RULE_KEYS)[number];

/** Each rule's score when it fires; earlier claims score per claim, up to their cap. */
export const SIGNAL_SCORES = {
  same_device: 40,
  same_vehicle: 40,
  same_bank_account: 40,
  early_claim: 20,
  photo_date: 30,
  at_ceiling: 15,
  earlier_claims: 10,
} as const satisfies Record<RuleKey, number>;
export const EARLIER_CLAIMS_CAP = 30;
/** A claim of at least this share of the sum insured is "at the ceiling". */
const CEILING_PERCENT = 95;
/** Matches read per identifier: a count beyond says "or more" (a shared hot number cannot make scoring slow). */
export const MATCH_LIMIT = 1000;

/** What each rule saw, as stored in claim_flags.inputs: counts, dates and amounts only. */
interface SharedInputs {
  /** Which identifiers matched, e.g. ["vin", "plate"]. */
  kinds: IdentifierKind[];
  otherPolicies: number;
  otherPartners: number;
  /** A count reached MATCH_LIMIT: "or more". */
  atLeast: boolean;
}
interface EarlyInputs {
  coverFirstDay: string;
  incidentDate: string;
  days: number;
  earlyDays: number;
}
interface PhotoInputs {
  coverFirstDay: string;
  submittedOn: string;
  /** JPEG photographs looked at, and how many carried a readable date. */
  photos: number;
  dated: number;
  /** The Nigerian days of the photographs dated before the cover started, and after the claim was made. */
  before: string[];
  after: string[];
}
interface CeilingInputs {
  claimedKobo: number;
  ceilingKobo: number;
  /** The amount claimed in whole percent of the sum insured, rounded down. */
  percent: number;
}
interface EarlierInputs {
  earlierClaims: number;
  atThisPartner: number;
  atOtherPartners: number;
  kinds: IdentifierKind[];
  atLeast: boolean;
}
export type FlagInputs = SharedInputs | EarlyInputs | PhotoInputs | CeilingInputs | EarlierInputs;

export type Flag =
  | { rule: SharedRule; score: number; inputs: SharedInputs }
  | { rule: "early_claim"; score: number; inputs: EarlyInputs }
  | { rule: "photo_date"; score: number; inputs: PhotoInputs }
  | { rule: "at_ceiling"; score: number; inputs: CeilingInputs }
  | { rule: "earlier_claims"; score: number; inputs: EarlierInputs };

export interface ClaimSignals {
  /** Highest score first. */
  flags: Flag[];
  score: number;
  /** The score reached CLAIM_SIGNAL_REVIEW_SCORE: a second administrator confirms the decision. */
  needsSecondReviewer: boolean;
}

/** Another claim that shares an identifier with this one (the match rows of claim_identifiers). */
export interface Match {
  kind: IdentifierKind;
  /** The matched claim's identifier (hex of its hash): a count per identifier tells when MATCH_LIMIT was reached. */
  hash: string;
  claimId: string;
  policyId: string;
  partnerId: string;
  /** The matched claim was made before this one. */
  earlier: boolean;
}

/** What the rules look at: the claim, its policy's cover, the matches, the photographs' dates. */
export interface RuleInput {
  partnerId: string;
  policyId: string;
  incidentDate: string;
  coverStart: Date;
  submittedAt: Date;
  claimedKobo: number;
  /** The policy's sum insured where its product has one (the claim's ceiling); null otherwise. */
  ceilingKobo: number | null;
  /** One per JPEG photograph: its EXIF date, or null. */
  photoDates: readonly (PhotoDate | null)[];
  matches: readonly Match[];
  earlyDays: number;
}

const distinct = <T>(values: Iterable<T>) => new Set(values).size;

/** Whether the matches of any identifier of `kinds` were cut at MATCH_LIMIT. */
function reachedLimit(matches: readonly Match[]): boolean {
  const perIdentifier = new Map<string, number>();
  for (const m of matches) perIdentifier.set(`${m.kind}:${m.hash}`, (perIdentifier.get(`${m.kind}:${m.hash}`) ?? 0) + 1);
  return [...perIdentifier.values()].some((n) => n > MATCH_LIMIT);
}

/** The same device, vehicle or bank account claimed on another policy, at any partner. */
function sharedItem(rule: SharedRule, input: RuleInput): Flag | null {
  const kinds: readonly IdentifierKind[] = SHARED_ITEMS[rule];
  const matches = input.matches.filter((m) => kinds.includes(m.kind));
  const others = matches.filter((m) => m.policyId !== input.policyId);
  if (!others.length) return null;
  return {
    rule,
    score: SIGNAL_SCORES[rule],
    inputs: {
      kinds: kinds.filter((k) => others.some((m) => m.kind === k)),
      otherPolicies: distinct(others.map((m) => m.policyId)),
      otherPartners: distinct(others.filter((m) => m.partnerId !== input.partnerId).map((m) => m.partnerId)),
      atLeast: reachedLimit(matches),
    },
  };
}

/** The incident within `earlyDays` Nigerian days of the cover's first day (0: that very day). */
function earlyClaim(input: RuleInput): Flag | null {
  const coverFirstDay = watToday(input.coverStart);
  const days = daysBetween(coverFirstDay, input.incidentDate);
  if (days < 0 || days > input.earlyDays) return null;
  return {
    rule: "early_claim",
    score: SIGNAL_SCORES.early_claim,
    inputs: { coverFirstDay, incidentDate: input.incidentDate, days, earlyDays: input.earlyDays },
  };
}

/**
 * A photograph dated before the cover started or after the claim was made, by Nigerian days: a
 * camera's clock has no time zone, so a photograph of the claim's own day is never "after".
 */
function photoDates(input: RuleInput): Flag | null {
  const coverFirstDay = watToday(input.coverStart);
  const submittedOn = watToday(input.submittedAt);
  const dated = input.photoDates.filter((d): d is PhotoDate => d !== null);
  const before = dated.filter((d) => d.day < coverFirstDay).map((d) => d.day);
  const after = dated.filter((d) => d.day > submittedOn).map((d) => d.day);
  if (!before.length && !after.length) return null;
  return {
    rule: "photo_date",
    score: SIGNAL_SCORES.photo_date,
    inputs: { coverFirstDay, submittedOn, photos: input.photoDates.length, dated: dated.length, before, after },
  };
}

/** The amount claimed at CEILING_PERCENT or more of the sum insured (only where the product has one). */
function atCeiling(input: RuleInput): Flag | null {
  const { claimedKobo, ceilingKobo } = input;
  if (ceilingKobo === null || ceilingKobo <= 0 || claimedKobo * 100 < ceilingKobo * CEILING_PERCENT) return null;
  return {
    rule: "at_ceiling",
    score: SIGNAL_SCORES.at_ceiling,
    inputs: { claimedKobo, ceilingKobo, percent: Math.floor((claimedKobo * 100) / ceilingKobo) },
  };
}

/** Claims the same claimant made before this one: the same consumer at the partner, or the same phone, e-mail or identity number anywhere. */
function earlierClaims(input: RuleInput): Flag | null {
  const matches = input.matches.filter((m) => CLAIMANT_KINDS.includes(m.kind));
  const earlier = matches.filter((m) => m.earlier);
  const claims = new Map(earlier.map((m) => [m.claimId, m.partnerId]));
  if (!claims.size) return null;
  const atThisPartner = [...claims.values()].filter((partnerId) => partnerId === input.partnerId).length;
  return {
    rule: "earlier_claims",
    score: Math.min(EARLIER_CLAIMS_CAP, SIGNAL_SCORES.earlier_claims * claims.size),
    inputs: {
      earlierClaims: claims.size,
      atThisPartner,
      atOtherPartners: claims.size - atThisPartner,
      kinds: CLAIMANT_KINDS.filter((k) => earlier.some((m) => m.kind === k)),
      atLeast: reachedLimit(matches),
    },
  };
}

/** Every rule that fires on the claim, highest score first (then in the rules' order). */
export function flagsOf(input: RuleInput): Flag[] {
  const found = [
    sharedItem("same_device", input),
    sharedItem("same_vehicle", input),
    sharedItem("same_bank_account", input),
    earlyClaim(input),
    photoDates(input),
    atCeiling(input),
    earlierClaims(input),
  ].filter((f): f is Flag => f !== null);
  return found.sort(highestFirst);
}

/** Highest score first, then in the rules' order. */
export const highestFirst = (a: Pick<Flag, "rule" | "score">, b: Pick<Flag, "rule" | "score">) =>
  b.score - a.score || RULE_KEYS.indexOf(a.rule) - RULE_KEYS.indexOf(b.rule);

/** The flags' total, and whether it reaches the review score. */
export function signalsOf(flags: Flag[], reviewScore: number): ClaimSignals {
  const score = flags.reduce((sum, f) => sum + f.score, 0);
  return { flags, score, needsSecondReviewer: flags.length > 0 && score >= reviewScore };
}
