/** A claim's letters as downloads (both surfaces' pages serve them, each in its own scope): the voucher of a version, the rejection letter. */
import type { Executor } from "../../db/client";
import { rejectionLetter } from "./rejection-letter";
import { type ClaimScope, claimDetail } from "./service";
import { voucherDocument } from "./voucher";

const PDF = "application/pdf" as const;

/** `file` as the URL names it ("2.pdf"): the voucher of that version, or null when there is none in this scope. */
export async function voucherFile(db: Executor, scope: ClaimScope, claimNo: string, file: string) {
  const version = /^(\d{1,4})\.pdf$/.exec(file)?.[1];
  if (!version) return null;
  const claim = await claimDetail(db, scope, claimNo).catch(() => null);
  const voucher = claim && (await voucherDocument(db, claim.id, Number(version)));
  return voucher ? { name: `discharge-voucher-${claimNo}-v${voucher.version}.pdf`, mime: PDF, bytes: voucher.content } : null;
}

/** The letter of a rejected claim in this scope, or null. */
export async function letterFile(db: Executor, scope: ClaimScope, claimNo: string, insurerName: string) {
  const claim = await claimDetail(db, scope, claimNo).catch(() => null);
  if (claim?.status !== "rejected") return null;
  return { name: `claim-rejection-${claimNo}.pdf`, mime: PDF, bytes: await rejectionLetter(db, claim, insurerName) };
}
