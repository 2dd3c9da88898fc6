/**
 * The account a claim is paid into (issue 37, item 5; docs/claims.md, "Payee"): the partner gives
 * it (`claim payee`, the claim page); the payout provider's name enquiry says whose it is, and that
 * name must match the insured's within the documented tolerance (src/modules/payouts/names.ts),
 * else an administrator looks at it and confirms it. An approved claim's voucher names the account,
 * so each change of it on an approved claim issues the voucher's next version.
 */
import { and, eq, inArray } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import type { Database, Executor } from "../../db/client";
import { type AuditActor, recordAudit } from "../audit";
import { type BankAccount, bankName, isBankCode, namesMatch, type PayoutProvider } from "../payouts";
import type { Mode } from "../policies";
import type { SignalSettings } from "../signals";
import { claimPayouts, claims } from "./schema";
import { type ClaimDetail, type ClaimRecord, checkMode, claimDetail, lockClaim, reflagClaim } from "./service";
import { insuredOf, issueVoucher, type LetterSettings } from "./voucher";

/** A claim whose payee may change: open, or approved with no payout on its way or made. */
const PAYEE_STATUSES = new Set(["submitted", "in_review", "info_requested", "approved"]);

/** Refuse a payee change a claim no longer takes: after its decision went against it, or once money is on its way. */
async function refuseUnchangeable(tx: Executor, claim: ClaimRecord) {
  if (!PAYEE_STATUSES.has(claim.status))
    throw new CommandError(409, `claim ${claim.claimNo} is ${claim.status}: the account to pay it into can no longer change`);
  const [live] = await tx
    .select({ status: claimPayouts.status })
    .from(claimPayouts)
    .where(and(eq(claimPayouts.claimId, claim.id), inArray(claimPayouts.status, ["queued", "pending", "success"])));
  if (live)
    throw new CommandError(
      409,
      `claim ${claim.claimNo} has a payout ${live.status === "success" ? "made" : "on its way"} to its account: the account can no longer change`,
    );
}

/** The account as the wire shows it, with how its name compares with the insured's. */
export const wirePayee = (claim: ClaimRecord) =>
  claim.payeeBankCode && claim.payeeAccountNumber
    ? {
        bankCode: claim.payeeBankCode,
        bank: bankName(claim.payeeBankCode) ?? claim.payeeBankCode,
        accountNumber: claim.payeeAccountNumber,
        accountName: claim.payeeAccountName ?? "",
        nameCheck: claim.payeeNameCheck ?? "mismatch",
      }
    : undefined;

/**
 * `claim payee`: the account to pay a claim of this partner into. The bank's name for it is asked
 * first (outside the transaction: the provider is another party), then stored under the claim's
 * lock with how it compares with the insured's. The same account again changes nothing.
 */
export async function setPayee(
  db: Database,
  input: {
    partnerId: string;
    mode: Mode;
    claimNo: string;
    account: BankAccount;
    provider: (mode: Mode) => PayoutProvider;
    letters: LetterSettings;
    signals: SignalSettings;
    now: Date;
    actor?: AuditActor;
  },
): Promise<ClaimDetail> {
  const { account, now } = input;
  if (!isBankCode(account.bankCode))
    throw new CommandError(
      400,
      `seed.bankCode ${account.bankCode} is not a bank code we know: docs/payouts.md lists them (e.g. 058 for GTBank)`,
      "seed.bankCode",
    );
  const scope = { partnerId: input.partnerId };
  const before = await claimDetail(db, scope, input.claimNo);
  checkMode({ reference: before.policy, mode: before.mode }, input.mode);
  const insured = await insuredOf(db, before);
  const found = await input.provider(before.mode).resolveAccount(account, { expectedName: insured.name });
  if (found.status === "not_found")
    throw new CommandError(
      400,
      `seed.accountNumber ${account.accountNumber} at ${bankName(account.bankCode)}: the bank found no such account (${found.reason})`,
      "seed.accountNumber",
    );
  const nameCheck = namesMatch(insured.name, found.accountName).match ? "matched" : "mismatch";
  return db.transaction(async (tx) => {
    const claim = await lockClaim(tx, scope, input.claimNo);
    const same = claim.payeeBankCode === account.bankCode && claim.payeeAccountNumber === account.accountNumber && claim.payeeAccountName === found.accountName;
    if (same) return claimDetail(tx, scope, claim.claimNo);
    await refuseUnchangeable(tx, claim);
    const [row] = await tx
      .update(claims)
      .set({
        payeeBankCode: account.bankCode,
        payeeAccountNumber: account.accountNumber,
        payeeAccountName: found.accountName,
        payeeNameCheck: nameCheck,
        payeeConfirmedBy: null,
        updatedAt: now,
      })
      .where(eq(claims.id, claim.id))
      .returning();
    if (input.actor)
      await recordAudit(
        tx,
        input.actor,
        {
          action: "claim.payee",
          subject: claim.claimNo,
          details: {
            bankCode: bankName(account.bankCode) ?? account.bankCode,
            accountNumber: account.accountNumber,
            nameCheck: nameCheck === "matched" ? "matches the insured's" : "does not match the insured's",
          },
        },
        now,
      );
    // The same account claimed on other policies is a signal: the rules look again with it.
    await reflagClaim(tx, row!, input.signals, now);
    await issueVoucher(tx, { ...claim, ...row! }, input.letters, now);
    return claimDetail(tx, scope, claim.claimNo);
  });
}

/**
 * An administrator confirms that an account whose name does not match the insured's is theirs
 * (after looking: a married name, a business account of a sole trader); an approved claim's
 * voucher is then issued.
 */
export async function confirmPayee(
  db: Database,
  input: { claimNo: string; by: string; actor: AuditActor; letters: LetterSettings; now: Date },
): Promise<ClaimDetail> {
  const { now } = input;
  return db.transaction(async (tx) => {
    const claim = await lockClaim(tx, {}, input.claimNo);
    if (claim.payeeNameCheck !== "mismatch")
      throw new CommandError(
        409,
        claim.payeeNameCheck
          ? `the account of claim ${claim.claimNo} needs no confirmation: its name ${claim.payeeNameCheck === "matched" ? "matches the insured's" : "was confirmed already"}`
          : `claim ${claim.claimNo} has no account to pay into yet`,
      );
    await refuseUnchangeable(tx, claim);
    const [row] = await tx
      .update(claims)
      .set({ payeeNameCheck: "confirmed", payeeConfirmedBy: input.by, updatedAt: now })
      .where(eq(claims.id, claim.id))
      .returning();
    await recordAudit(
      tx,
      input.actor,
      {
        action: "claim.payee_confirm",
        subject: claim.claimNo,
        partnerId: claim.partnerId,
        details: { accountNumber: claim.payeeAccountNumber, accountName: claim.payeeAccountName },
      },
      now,
    );
    await issueVoucher(tx, { ...claim, ...row! }, input.letters, now);
    return claimDetail(tx, {}, claim.claimNo);
  });
}
