import type { Config } from "../../core/config";
import type { Database } from "../../db/client";
import { type AuditActor, recordAudit } from "../audit";
import { queueMessage } from "../messages";
import { brandOf } from "./branding";
import { FORM_WORDS, type Notice, type TemplateForm } from "./catalogue";
import { composeEmail, composeSms, sampleValues } from "./compose";
import { templateInEffect } from "./templates";

/**
 * A template in effect, with sample values, to the signed-in person's own e-mail (an SMS template's text
 * too: the e-mail carries it). Asked twice in the same minute, one is queued. Returns whether this one was.
 */
export async function sendTestMessage(
  db: Database,
  config: Config,
  partnerId: string,
  notice: Notice,
  form: TemplateForm,
  actor: AuditActor & { userId: string; email: string; name: string },
  now: Date,
): Promise<boolean> {
  const brand = await brandOf(db, config, partnerId);
  const template = await templateInEffect(db, partnerId, notice, form, now);
  const values = sampleValues(notice, brand);
  const email =
    form === "email"
      ? composeEmail(template, values, brand)
      : composeEmail({ subject: `Test ${FORM_WORDS[form]}: ${notice.label}`, body: composeSms(template, values) }, values, brand);
  return db.transaction(async (tx) => {
    const id = await queueMessage(
      tx,
      {
        partnerId,
        channel: "email",
        kind: "template.test",
        recipient: actor.email,
        recipientName: actor.name,
        about: `user:${actor.userId}`,
        ...email,
        subject: `[Test] ${email.subject}`,
        dedupeKey: `template.test:${actor.userId}:${notice.key}:${form}:${Math.floor(now.getTime() / 60_000)}`,
      },
      now,
    );
    if (id) await recordAudit(tx, actor, { action: "notice.test_send", subject: notice.label, details: { form } }, now);
    return id !== null;
  });
}
