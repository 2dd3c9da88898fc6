/**
 * Paying a claim as the real path does (docs/claims.md, "Payout"): the account given, the voucher the
 * approval (or the account) issued accepted, the sandbox payout sent and confirmed by its callback.
 */
import type { Config } from "../../src/core/config";
import type { Database } from "../../src/db/client";
import { decisionSettings } from "../../src/modules/claims/decisions";
import { setPayee } from "../../src/modules/claims/payee";
import { acceptAndPay, payoutSettings } from "../../src/modules/claims/payout";
import { type ClaimDetail, claimDetail } from "../../src/modules/claims/service";
import { payoutProvider } from "../../src/modules/payouts";
import { signalSettings } from "../../src/modules/signals";

/** The sandbox's account of the insured at GTBank that pays at once (docs/payouts.md). */
export const PAYING_ACCOUNT = { bankCode: "058", accountNumber: "0123456780" };

/** Give the account of an approved claim (or one about to be), as its partner would. */
export async function givePayee(
  db: Database,
  config: Config,
  claim: { claimNo: string; partnerId: string; mode: "test" | "live" },
  now: Date,
  account = PAYING_ACCOUNT,
) {
  return setPayee(db, {
    partnerId: claim.partnerId,
    mode: claim.mode,
    claimNo: claim.claimNo,
    account,
    provider: (mode) => payoutProvider(config, mode),
    letters: decisionSettings(config).letters,
    signals: await signalSettings(db, config),
    now,
  });
}

/** Pay an approved claim: its account (the paying one unless it has one), the voucher accepted, the payout sent; the claim as it then stands. */
export async function payClaim(
  db: Database,
  config: Config,
  claim: { claimNo: string; partnerId: string; mode: "test" | "live" },
  now: Date,
): Promise<ClaimDetail> {
  const scope = { partnerId: claim.partnerId };
  let current = await claimDetail(db, scope, claim.claimNo);
  if (!current.payeeBankCode) current = await givePayee(db, config, claim, now);
  if (!current.voucher) throw new Error(`claim ${claim.claimNo} has no voucher to accept (status ${current.status}, account ${current.payeeNameCheck})`);
  await acceptAndPay(db, payoutSettings(config), {
    ...scope,
    mode: claim.mode,
    claimNo: claim.claimNo,
    version: current.voucher.version,
    channel: "api",
    by: "test",
    now,
  });
  return claimDetail(db, scope, claim.claimNo);
}

/** The same over the wire, as a partner's systems do it: `claim payee`, then `claim accept` of the voucher it issued; the last answer. */
export async function payOverTheWire(
  p: { run(cmmnd: string, seed?: unknown, label?: "test" | "live" | "legacy"): Promise<any> },
  claimNo: string,
  label: "test" | "live" = "test",
) {
  const given = await p.run("claim payee", { claimNo, ...PAYING_ACCOUNT }, label);
  if (!given.voucher) throw new Error(`claim ${claimNo}: no voucher after its account was given (${JSON.stringify(given.exctnFdbck)})`);
  return p.run("claim accept", { claimNo, version: given.voucher.version }, label);
}
