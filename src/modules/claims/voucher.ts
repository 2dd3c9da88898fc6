/**
 * The discharge voucher (issue 37, item 4; docs/claims.md, "Discharge voucher"): once a claim is
 * approved and the account to pay it into is known (its name matched to the insured's, or
 * confirmed by an administrator), a voucher is issued — the insured, the policy, the loss, the
 * approved amount, the excess, what is payable and the account — rendered once as a PDF and kept.
 * A change of the account issues the next version and replaces the last. The claimant's acceptance
 * of the current version is recorded with its time and channel, and queues the payout.
 */
import { and, desc, eq } from "drizzle-orm";
import { day } from "../../../views/format";
import { CommandError } from "../../core/errors";
import { formatNaira, toNaira as naira } from "../../core/money";
import { watTimestamp } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { productName } from "../../products";
import { consumerName, findConsumer } from "../consumers";
import { recordEvent } from "../events";
import { bankName } from "../payouts";
import type { Mode } from "../policies";
import { policiesByIds } from "../policies";
import { renderLetter } from "./letter-pdf";
import { excessPercentOf } from "./rules";
import { claims, claimVouchers } from "./schema";
import { type ClaimRecord, checkMode, claimHeading, lockClaim } from "./service";
import { currentVoucher, type VoucherRecord } from "./settlement-records";

/** One version of a claim's voucher with its PDF (the latest when `version` is not given). */
export async function voucherDocument(db: Executor, claimId: string, version?: number) {
  const [voucher] = await db
    .select()
    .from(claimVouchers)
    .where(and(eq(claimVouchers.claimId, claimId), ...(version === undefined ? [] : [eq(claimVouchers.version, version)])))
    .orderBy(desc(claimVouchers.version))
    .limit(1);
  return voucher ?? null;
}

/** What a claim's letters need from the settings: who writes, and the late-interest rate a voucher states. */
export interface LetterSettings {
  insurerName: string;
  lateInterestBasisPoints: number;
}

/** Whom and what a claim's letters name: the insured's name and the policy's number. */
export async function insuredOf(db: Executor, claim: ClaimRecord): Promise<{ name: string; policyNo: string | null }> {
  const [policy] = await policiesByIds(db, [claim.policyId]);
  const consumer = policy ? await findConsumer(db, claim.partnerId, policy.consumerId) : null;
  return { name: (consumer && consumerName(consumer.profile)) || "the insured", policyNo: policy?.policyNo ?? null };
}

/** The payee's account is ready to be paid: its name matched the insured's, or an administrator confirmed it. */
const payeeReady = (claim: Pick<ClaimRecord, "payeeNameCheck">) => claim.payeeNameCheck === "matched" || claim.payeeNameCheck === "confirmed";

/**
 * Issue the next version of a claim's voucher (the claim's row locked by the caller), when it is
 * approved and its payee ready; the version in force is replaced. Returns the new voucher, or null
 * when none is due yet. The voucher clock stops at the first.
 */
export async function issueVoucher(tx: Executor, claim: ClaimRecord, letters: LetterSettings, now: Date): Promise<VoucherRecord | null> {
  const { insurerName } = letters;
  if (claim.status !== "approved" || !payeeReady(claim) || !claim.payeeBankCode || !claim.payeeAccountNumber || !claim.payeeAccountName) return null;
  const last = await voucherDocument(tx, claim.id);
  const version = (last?.version ?? 0) + 1;
  const insured = await insuredOf(tx, claim);
  const payable = formatNaira(claim.payableKobo ?? 0);
  const percent = excessPercentOf(claim.productCode);
  const content = await renderLetter({
    title: "Discharge voucher",
    from: insurerName,
    subtitle: `Claim ${claim.claimNo} · version ${version} · issued ${day(now)}`,
    sections: [
      {
        heading: "The claim",
        rows: [
          ["Insured", insured.name],
          ["Policy", insured.policyNo ?? claim.policy],
          ["Cover", productName(claim.productCode)],
          ["Incident", day(claim.incidentDate)],
          ["What happened", claim.description],
          ["Claim made", day(claim.createdAt)],
        ],
      },
      {
        heading: "The settlement",
        rows: [
          ["Claimed", formatNaira(claim.claimedKobo)],
          ["Approved", formatNaira(claim.approvedKobo ?? 0)],
          ...(percent === null ? [] : ([[`Excess (${percent}%)`, formatNaira(claim.excessKobo ?? 0)]] as [string, string][])),
          ["Payable", payable],
        ],
        paragraphs: [
          `Paid after ${day(claim.settlementDueOn)}, the settlement carries interest for the delay at ${letters.lateInterestBasisPoints / 100}% a year, added to the payment.`,
        ],
      },
      {
        heading: "Paid to",
        rows: [
          ["Bank", bankName(claim.payeeBankCode) ?? claim.payeeBankCode],
          ["Account number", claim.payeeAccountNumber],
          ["Account name", claim.payeeAccountName],
        ],
      },
      {
        heading: "Discharge",
        paragraphs: [
          `I, ${insured.name}, accept ${payable} in full and final settlement of this claim, and discharge ${insurerName} from all further liability for this loss once the amount is received in the account above.`,
          "The acceptance is recorded with its time and the channel it came through; the payment follows.",
        ],
      },
    ],
    footer: `Version ${version} of this voucher${version > 1 ? ", replacing the earlier ones" : ""}. A change of the account to pay into issues a new version, which replaces this one.`,
  });
  if (last && !last.supersededAt)
    await tx
      .update(claimVouchers)
      .set({ supersededAt: now })
      .where(and(eq(claimVouchers.claimId, claim.id), eq(claimVouchers.version, last.version)));
  const row = {
    claimId: claim.id,
    version,
    approvedKobo: claim.approvedKobo ?? 0,
    excessKobo: claim.excessKobo ?? 0,
    payableKobo: claim.payableKobo ?? 0,
    bankCode: claim.payeeBankCode,
    accountNumber: claim.payeeAccountNumber,
    accountName: claim.payeeAccountName,
    content,
    issuedAt: now,
    acceptedAt: null,
    acceptedChannel: null,
    acceptedBy: null,
    supersededAt: null,
  };
  await tx.insert(claimVouchers).values(row);
  if (!claim.voucherIssuedAt) await tx.update(claims).set({ voucherIssuedAt: now }).where(eq(claims.id, claim.id));
  const { content: _pdf, ...voucher } = row;
  await recordEvent(
    tx,
    {
      partnerId: claim.partnerId,
      type: "claim.voucher_issued",
      targetUrl: claim.policyWebhook,
      payload: { ...claimHeading(claim), voucher: wireVoucher(voucher) },
    },
    now,
  );
  return voucher;
}

/** A voucher as the wire and the events show it. */
export const wireVoucher = (v: VoucherRecord) => ({
  version: v.version,
  status: v.supersededAt ? ("superseded" as const) : v.acceptedAt ? ("accepted" as const) : ("issued" as const),
  approvedAmount: naira(v.approvedKobo),
  excess: naira(v.excessKobo),
  payable: naira(v.payableKobo),
  bankCode: v.bankCode,
  bank: bankName(v.bankCode) ?? v.bankCode,
  accountNumber: v.accountNumber,
  accountName: v.accountName,
  issued: watTimestamp(v.issuedAt),
  ...(v.acceptedAt ? { accepted: watTimestamp(v.acceptedAt), channel: v.acceptedChannel ?? "api" } : {}),
});

export type AcceptanceChannel = "api" | "portal" | "self_service";

/**
 * Record the claimant's acceptance of a voucher version (`claim accept`, the claim page): only the
 * version in force of an approved claim of this partner, in the key's mode. A repeat of the same
 * acceptance answers as the first did; a replaced version is refused, naming the one in force.
 * `queue` (the payout) runs in the same transaction, so an accepted voucher always has its payout.
 */
export async function acceptVoucher(
  db: Database,
  input: { partnerId: string; mode: Mode; claimNo: string; version: number; channel: AcceptanceChannel; by: string; now: Date },
  queue: (tx: Executor, claim: ClaimRecord, voucher: VoucherRecord) => Promise<void>,
): Promise<{ accepted: boolean; claimId: string }> {
  const { now } = input;
  return db.transaction(async (tx) => {
    const claim = await lockClaim(tx, { partnerId: input.partnerId }, input.claimNo);
    checkMode({ reference: claim.policy, mode: claim.mode }, input.mode);
    const voucher = await currentVoucher(tx, claim.id);
    if (!voucher)
      throw new CommandError(
        409,
        claim.status === "approved"
          ? `claim ${claim.claimNo} has no discharge voucher yet: it is issued once the account to pay into is given (claim payee) and its name matches the insured's or an administrator confirms it`
          : `claim ${claim.claimNo} is ${claim.status}: only an approved claim has a discharge voucher to accept`,
      );
    if (voucher.version !== input.version) {
      const older = input.version < voucher.version;
      throw new CommandError(
        409,
        older
          ? `seed.version ${input.version} of the voucher of claim ${claim.claimNo} was replaced by version ${voucher.version} (the account to pay into changed): accept version ${voucher.version}`
          : `seed.version: claim ${claim.claimNo} has no voucher version ${input.version}; the one in force is version ${voucher.version}`,
        "seed.version",
      );
    }
    if (voucher.acceptedAt) return { accepted: false, claimId: claim.id };
    await tx
      .update(claimVouchers)
      .set({ acceptedAt: now, acceptedChannel: input.channel, acceptedBy: input.by })
      .where(and(eq(claimVouchers.claimId, claim.id), eq(claimVouchers.version, voucher.version)));
    await queue(tx, claim, { ...voucher, acceptedAt: now, acceptedChannel: input.channel, acceptedBy: input.by });
    return { accepted: true, claimId: claim.id };
  });
}
