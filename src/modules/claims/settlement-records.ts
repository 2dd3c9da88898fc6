/**
 * A claim's settlement as its reads need it (voucher.ts and payout.ts make and move them): the
 * voucher in force and the latest payout, without the voucher's PDF.
 */
import { and, desc, eq, getTableColumns, isNull } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { claimPayouts, claimVouchers } from "./schema";

export type VoucherRecord = Omit<typeof claimVouchers.$inferSelect, "content">;
export type PayoutRecord = typeof claimPayouts.$inferSelect;

const { content: _content, ...voucherColumns } = getTableColumns(claimVouchers);

/** The claim's voucher in force (the latest version, not replaced), without its PDF. */
export async function currentVoucher(db: Executor, claimId: string): Promise<VoucherRecord | null> {
  const [voucher] = await db
    .select(voucherColumns)
    .from(claimVouchers)
    .where(and(eq(claimVouchers.claimId, claimId), isNull(claimVouchers.supersededAt)));
  return voucher ?? null;
}

/** The latest payout of a claim, if it has one. */
export async function latestPayout(db: Executor, claimId: string): Promise<PayoutRecord | null> {
  const [payout] = await db.select().from(claimPayouts).where(eq(claimPayouts.claimId, claimId)).orderBy(desc(claimPayouts.createdAt)).limit(1);
  return payout ?? null;
}
