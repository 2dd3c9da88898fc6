import { eq } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import type { Viewer } from "../../core/principal";
import type { Database } from "../../db/client";
import { recordAudit } from "../audit";
import { reachable } from "../messages";
import { partners } from "../partners";
import { normaliseEmail } from "./passwords";

/** Where the account's monthly statement is e-mailed, or null. */
export async function financeContactOf(db: Database, partnerId: string): Promise<string | null> {
  const [row] = await db.select({ financeEmail: partners.financeEmail }).from(partners).where(eq(partners.id, partnerId));
  return row?.financeEmail ?? null;
}

/** The owner sets (or, left blank, removes) the account's finance contact, with its audit row. */
export async function setFinanceContact(db: Database, owner: Viewer, raw: string, now: Date): Promise<string | null> {
  if (owner.role !== "owner") throw new CommandError(403, "only the account's owner sets its finance contact");
  const email = normaliseEmail(raw) || null;
  if (email && (email.length > 200 || !reachable("email", email)))
    throw new CommandError(400, "financeEmail must be an e-mail address, e.g. accounts@partner.ng, or left blank for none", "financeEmail");
  await db.transaction(async (tx) => {
    await tx.update(partners).set({ financeEmail: email }).where(eq(partners.id, owner.partnerId));
    await recordAudit(tx, owner, { action: "account.finance_contact", subject: owner.partnerName, details: { to: email ?? "none" } }, now);
  });
  return email;
}
