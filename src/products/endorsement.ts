/**
 * What a mid-term change (an endorsement) costs: the difference between the premium of the changed
 * terms and of the current ones, both priced by today's rules, for the share of the cover still to
 * run. Positive is charged, negative given back, never more than was paid. Integer kobo, in BigInt
 * (docs/lifecycle.md, "Endorsements").
 */
import { formatNaira } from "../core/money";

import { DAY_MS } from "../core/time";

export interface EndorsementPricing {
  /** The full-term premium of the policy's current terms, priced now. */
  currentKobo: number;
  /** The full-term premium of the changed terms, priced now. */
  changedKobo: number;
  /** What the policy has cost so far (its premium and earlier changes): a refund never exceeds it. */
  paidKobo: number;
  coverStart: Date;
  coverEnd: Date;
  /** When the change takes effect. */
  at: Date;
}

export interface PremiumChange {
  /** Charged (positive) or given back (negative). */
  changeKobo: number;
  /** The arithmetic in words, for the answer, the portal and the ledger. */
  explanation: string;
}

/** `a * b / c` rounded half away from zero, exactly. */
function mulDivRound(a: bigint, b: bigint, c: bigint): bigint {
  const negative = a < 0n !== b < 0n;
  const magnitude = (2n * (a < 0n ? -a : a) * (b < 0n ? -b : b) + c) / (2n * c);
  return negative ? -magnitude : magnitude;
}

export function endorsementPremiumChange(p: EndorsementPricing): PremiumChange {
  const total = Math.max(1, p.coverEnd.getTime() - p.coverStart.getTime());
  const remaining = Math.min(total, Math.max(0, p.coverEnd.getTime() - Math.max(p.at.getTime(), p.coverStart.getTime())));
  const difference = p.changedKobo - p.currentKobo;
  const prorated = Number(mulDivRound(BigInt(difference), BigInt(remaining), BigInt(total)));
  const changeKobo = Math.max(prorated, -p.paidKobo);
  const share =
    remaining === total
      ? "all of the cover is still to run"
      : `${Math.ceil(remaining / DAY_MS)} of its ${Math.round(total / DAY_MS)} days of cover are still to run`;
  if (difference === 0) return { changeKobo: 0, explanation: "The premium does not change" };
  const direction = difference > 0 ? "more" : "less";
  const capped = changeKobo !== prorated ? `, limited to the ${formatNaira(p.paidKobo)} paid` : "";
  return {
    changeKobo,
    explanation: `The changed cover costs ${formatNaira(Math.abs(difference))} a term ${direction}; ${share}: ${formatNaira(Math.abs(changeKobo))} ${difference > 0 ? "to pay" : "back"}${capped}`,
  };
}
