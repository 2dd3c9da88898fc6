import { and, eq, isNotNull, lt, sql } from "drizzle-orm";
import { monthName, naira } from "../../../views/format";
import { type Config, publicUrl } from "../../core/config";
import type { Job } from "../../core/job";
import type { Database } from "../../db/client";
import { currentWatMonth, watMonth } from "../enrichment";
import { messages, type OutgoingMessage, queueMessage } from "../messages";
import { partners } from "../partners";
import { previousMonth } from "./model";
import { statementFigures } from "./presenter";
import { type PartnerStatement, partnerStatement } from "./service";

/** Statements e-mailed in one pass: each is a statement's worth of sums. */
const BATCH = 20;

/** The dedupe key of a partner's month (the query of mailStatements spells it too): e-mailed once, whoever asks how often. */
const statementMailKey = (partnerId: string, month: string) => `statement:${partnerId}:${month}`;

/** The e-mail of a month's statement to the finance contact: its figures as the statement page says them, and the link to it. */
function statementMail(s: PartnerStatement, financeEmail: string, config: Config): OutgoingMessage {
  const month = monthName(s.month);
  const { due, wallet } = statementFigures(s);
  const lines = (figures: typeof due) => figures.map((f) => `  ${f.label}: ${naira(f.kobo)}`).join("\n");
  return {
    partnerId: s.partnerId,
    channel: "email",
    kind: "staff.statement",
    recipient: financeEmail,
    subject: `${s.partnerName}: your statement for ${month}`,
    body: [
      "Hello,",
      `The statement of ${s.partnerName} for ${month} is ready. ${s.policiesWritten === 1 ? "1 live policy was" : `${s.policiesWritten} live policies were`} written in the month, and the net due for it is ${naira(s.netDueKobo)}.`,
      `What you paid for the month:\n${lines(due)}`,
      `How the wallet moved:\n${lines(wallet)}`,
      `See it in the portal, and download it as PDF or CSV:\n${publicUrl(config)}/portal/statements?month=${s.month}`,
      `This e-mail goes to the finance contact of ${s.partnerName}; the account's owner changes it on the portal's Account settings page.`,
    ].join("\n\n"),
    dedupeKey: statementMailKey(s.partnerId, s.month),
  };
}

/**
 * Once a month is over its statement is final: e-mail it to each partner's finance contact, once
 * (dedupe key statement:<partner>:<month>). Partners without a contact, the operator's own account,
 * and partners opened after the month get none. Returns how many it queued.
 */
export async function mailStatements(db: Database, config: Config, now: Date): Promise<number> {
  const month = previousMonth(currentWatMonth(now));
  const [, monthEnd] = watMonth(month);
  const due = await db
    .select({ id: partners.id, financeEmail: partners.financeEmail })
    .from(partners)
    .where(
      and(
        isNotNull(partners.financeEmail),
        eq(partners.isAdmin, false),
        lt(partners.createdAt, monthEnd),
        sql`not exists (select 1 from ${messages} where ${messages.dedupeKey} = 'statement:' || ${partners.id} || ${`:${month}`})`,
      ),
    )
    .orderBy(partners.id)
    .limit(BATCH);
  let queued = 0;
  for (const partner of due) {
    const statement = await partnerStatement(db, partner.id, month);
    if (await db.transaction((tx) => queueMessage(tx, statementMail(statement, partner.financeEmail!, config), now))) queued++;
  }
  return queued;
}

export const statementMailJob = (db: Database, config: Config): Job => ({ name: "statement-mail", run: (now) => mailStatements(db, config, now) });
