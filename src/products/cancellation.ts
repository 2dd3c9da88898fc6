/**
 * What a cancelled policy's premium gives back. Each product family names its rule (in its own
 * folder, beside its premium rule); the arithmetic is here, once. Amounts are integer kobo and
 * are computed in BigInt, so a trillion-naira premium times a year of milliseconds stays exact.
 * docs/lifecycle.md gives the rules with worked examples.
 */
import { DAY_MS } from "../core/time";

/** Why a policy is cancelled (`cncl` seed.reason): stored with the cancellation, and said in words wherever it is shown. */
export const CANCELLATION_REASONS = ["insured_request", "item_sold", "duplicate", "trip_cancelled", "loan_repaid", "misrepresentation", "other"] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/** Each reason in words; the insurer's findings are the operator's to give. */
export const CANCELLATION_REASON_TEXT: Readonly<Record<CancellationReason, { text: string; operatorOnly?: boolean }>> = {
  insured_request: { text: "The insured asked to cancel" },
  item_sold: { text: "The insured vehicle, device, goods or property was sold or replaced" },
  duplicate: { text: "Issued twice by mistake" },
  trip_cancelled: { text: "The trip or shipment was called off" },
  loan_repaid: { text: "The loan was repaid early" },
  misrepresentation: { text: "Misrepresentation or fraud found by the insurer", operatorOnly: true },
  other: { text: "Another reason (say which in the note)" },
};

/** How a family refunds. */
export type CancellationRule =
  /** Cover that runs with time (vehicle, device, health, property): the unexpired share, less a short-period fee. */
  | { kind: "pro-rata"; feePercent: number }
  /** Cover of one trip or consignment (travel, marine, goods in transit): all of it less a fee until the risk starts, nothing after. */
  | { kind: "until-risk-starts"; feePercent: number; start: string }
  /** Cover of a loan (credit life, loan guaranty): the share of the outstanding loan's months (rule of 78), no fee. */
  | { kind: "outstanding-loan" };

/** Days after issuance within which a cancellation without a claim gets all of the premium back. */
const COOLING_OFF_DAYS = 14;

export interface CancellationCase {
  premiumKobo: number;
  issuedAt: Date;
  coverStart: Date;
  coverEnd: Date;
  /** When the cancellation is asked for. */
  requestedAt: Date;
  /** When the cover stops. */
  effectiveAt: Date;
  /** Claims made on the policy (withdrawn ones do not count). */
  claimsMade: number;
  /** A claim approved or paid: the cover was used. */
  claimPaid: boolean;
}

/** Which part of a rule decided a refund. */
export const REFUND_BASES = ["claim-paid", "cooling-off", "not-started", "pro-rata", "risk-run", "outstanding-loan"] as const;

export interface Refund {
  refundKobo: number;
  feeKobo: number;
  /** Which part of the rule decided. */
  basis: (typeof REFUND_BASES)[number];
  /** The rule as it applied, in words (events, the portal, the ledger). */
  explanation: string;
}

const percentOf = (kobo: bigint, percent: number) => (kobo * BigInt(Math.round(percent * 100)) + 5_000n) / 10_000n; // half up
const day = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().slice(0, 10); // WAT

/** `at` plus `months` calendar months, the day clamped to the month's last (31 Jan + 1 month is 28 or 29 Feb). */
function addMonths(at: Date, months: number): Date {
  const moved = new Date(at);
  moved.setUTCDate(1);
  moved.setUTCMonth(moved.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(moved.getUTCFullYear(), moved.getUTCMonth() + 1, 0)).getUTCDate();
  moved.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return moved;
}

/** Calendar months from `from` to `to`, a month begun counting as run (0 when `to` is not after `from`). */
export function monthsRun(from: Date, to: Date): number {
  let months = 0;
  while (addMonths(from, months) < to) months += 1;
  return months;
}

/** The refund of `c` under `rule`. Never negative, never more than the premium; refund + fee never exceed it either. */
export function cancellationRefund(rule: CancellationRule, c: CancellationCase): Refund {
  const premium = BigInt(c.premiumKobo);
  const refund = (refundKobo: bigint, feeKobo: bigint, basis: Refund["basis"], explanation: string): Refund => ({
    refundKobo: Number(refundKobo),
    feeKobo: Number(feeKobo),
    basis,
    explanation,
  });
  if (c.claimPaid) return refund(0n, 0n, "claim-paid", "No refund: a claim on this policy was approved or paid, so the cover was used");
  const started = c.effectiveAt > c.coverStart;
  if (rule.kind === "until-risk-starts" && started) return refund(0n, 0n, "risk-run", `No refund: the risk has run (${rule.start} on ${day(c.coverStart)})`);
  const coolingOff = c.requestedAt.getTime() - c.issuedAt.getTime() < COOLING_OFF_DAYS * DAY_MS && c.claimsMade === 0;
  if (coolingOff) return refund(premium, 0n, "cooling-off", `All of the premium: cancelled within ${COOLING_OFF_DAYS} days of issue, with no claim made`);
  if (rule.kind === "outstanding-loan") {
    const total = BigInt(Math.max(1, monthsRun(c.coverStart, c.coverEnd)));
    const left = total - BigInt(Math.min(Number(total), monthsRun(c.coverStart, c.effectiveAt)));
    const share = (premium * left * (left + 1n)) / (total * (total + 1n));
    return refund(share, 0n, "outstanding-loan", `The outstanding loan's share: ${left} of ${total} months left, by the rule of 78`);
  }
  if (!started) {
    const fee = percentOf(premium, rule.feePercent);
    return refund(premium - fee, fee, "not-started", `All of the premium less a ${rule.feePercent}% fee: the cover had not started`);
  }
  // Only pro-rata is left: the share of the cover not yet run, to the millisecond, rounded down to the kobo.
  const total = BigInt(c.coverEnd.getTime() - c.coverStart.getTime());
  const unexpiredMs = BigInt(Math.max(0, c.coverEnd.getTime() - c.effectiveAt.getTime()));
  const unexpired = total > 0n ? (premium * unexpiredMs) / total : 0n;
  const fee = percentOf(unexpired, rule.feePercent);
  const days = Math.ceil(Number(unexpiredMs) / DAY_MS);
  return refund(unexpired - fee, fee, "pro-rata", `The unexpired share (${days} days of the cover) less a ${rule.feePercent}% short-period fee`);
}

/**
 * What a cancellation with this refund means for claims on the policy afterwards, in words (the
 * portal says it before anyone confirms): within the cooling-off the policy counts as never bought
 * and takes no claim; any other refund is taken back when a claim on the policy is approved.
 */
export function claimsAfterCancellation(refund: Pick<Refund, "basis" | "refundKobo">): string | null {
  if (refund.basis === "cooling-off")
    return "Cancelled within the cooling-off, the policy counts as never bought: no claim is accepted on it afterwards, for any incident";
  if (refund.refundKobo > 0) return "If a claim on the policy, for an incident before the cancellation, is approved later, this refund is taken back";
  return null;
}
