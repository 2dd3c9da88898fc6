/**
 * A partner's templates and choices: the version of each template in effect, edits and resets (every
 * version kept, each an audit row), and which notices the partner sends themselves.
 */
import { and, desc, eq, lte } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import type { Database, Executor } from "../../db/client";
import { type AuditActor, recordAudit } from "../audit";
import type { MessageChannel } from "../messages";
import { type DefaultTemplate, NOTICES, type Notice, noticeOf, TEMPLATE_FORMS, type TemplateForm } from "./catalogue";
import { checkTemplate, type TemplateText } from "./render";
import { noticeSenders, noticeTemplates } from "./schema";

export interface TemplateInEffect extends DefaultTemplate {
  /** Whether the partner's own text (false: the default in code). */
  edited: boolean;
}

const asDefault = (notice: Notice, form: TemplateForm): TemplateInEffect => ({ ...notice.defaults[form], edited: false });

/** A notice by its key in a path, or a 404 that names it. */
export function noticeNamed(key: string): Notice {
  const notice = noticeOf(key);
  if (!notice) throw new CommandError(404, "no such message");
  return notice;
}

export function formNamed(value: string): TemplateForm {
  if (!(TEMPLATE_FORMS as readonly string[]).includes(value)) throw new CommandError(404, "no such template");
  return value as TemplateForm;
}

/** Every template of a partner in effect at `at`, by `<notice>:<form>` (the defaults where the partner has none). */
export async function templatesInEffect(db: Executor, partnerId: string, at: Date): Promise<Map<string, TemplateInEffect>> {
  const versions = await db
    .selectDistinctOn([noticeTemplates.notice, noticeTemplates.form])
    .from(noticeTemplates)
    .where(and(eq(noticeTemplates.partnerId, partnerId), lte(noticeTemplates.effectiveFrom, at)))
    .orderBy(noticeTemplates.notice, noticeTemplates.form, desc(noticeTemplates.effectiveFrom), desc(noticeTemplates.id));
  const current = new Map(versions.map((v) => [`${v.notice}:${v.form}`, v]));
  const templates = new Map<string, TemplateInEffect>();
  for (const notice of NOTICES)
    for (const form of TEMPLATE_FORMS) {
      const version = current.get(`${notice.key}:${form}`);
      templates.set(
        `${notice.key}:${form}`,
        version?.body ? { subject: version.subject ?? undefined, body: version.body, edited: true } : asDefault(notice, form),
      );
    }
  return templates;
}

/** One template in effect now. */
export async function templateInEffect(db: Executor, partnerId: string, notice: Notice, form: TemplateForm, at: Date): Promise<TemplateInEffect> {
  return (await templatesInEffect(db, partnerId, at)).get(`${notice.key}:${form}`)!;
}

/** A template's earlier versions, newest first (the edit page lists them). */
export function templateVersions(db: Executor, partnerId: string, notice: Notice, form: TemplateForm, limit = 10) {
  return db
    .select()
    .from(noticeTemplates)
    .where(and(eq(noticeTemplates.partnerId, partnerId), eq(noticeTemplates.notice, notice.key), eq(noticeTemplates.form, form)))
    .orderBy(desc(noticeTemplates.effectiveFrom), desc(noticeTemplates.id))
    .limit(limit);
}

type Editor = AuditActor & { email: string };

/** Save a partner's template: checked (variables, length), a new version in effect from now, an audit row. */
export async function saveTemplate(db: Database, partnerId: string, notice: Notice, form: TemplateForm, text: TemplateText, actor: Editor, now: Date) {
  const subject = form === "email" ? (text.subject ?? "").trim() : null;
  const body = text.body.replace(/\r\n/g, "\n").trim();
  checkTemplate(notice, form, { subject, body });
  await db.transaction(async (tx) => {
    await tx.insert(noticeTemplates).values({ id: newId(), partnerId, notice: notice.key, form, subject, body, effectiveFrom: now, savedBy: actor.email });
    await recordAudit(tx, actor, { action: "notice.template_save", subject: notice.label, details: { form } }, now);
  });
}

/** Back to the default in code: a version without a body, so the history still shows the edits before. */
export async function resetTemplate(db: Database, partnerId: string, notice: Notice, form: TemplateForm, actor: Editor, now: Date) {
  await db.transaction(async (tx) => {
    await tx
      .insert(noticeTemplates)
      .values({ id: newId(), partnerId, notice: notice.key, form, subject: null, body: null, effectiveFrom: now, savedBy: actor.email });
    await recordAudit(tx, actor, { action: "notice.template_reset", subject: notice.label, details: { form } }, now);
  });
}

/** The notices a partner sends themselves, as `<notice>:<channel>`. */
export async function partnerSends(db: Executor, partnerId: string): Promise<Set<string>> {
  const rows = await db.select().from(noticeSenders).where(eq(noticeSenders.partnerId, partnerId));
  return new Set(rows.map((r) => `${r.notice}:${r.channel}`));
}

/** Who sends a notice on a channel: the service, or the partner (the service then writes it as suppressed). Idempotent. */
export async function setSender(
  db: Database,
  partnerId: string,
  notice: Notice,
  channel: MessageChannel,
  sender: "service" | "partner",
  actor: AuditActor,
  now: Date,
) {
  await db.transaction(async (tx) => {
    const where = and(eq(noticeSenders.partnerId, partnerId), eq(noticeSenders.notice, notice.key), eq(noticeSenders.channel, channel));
    const changed =
      sender === "partner"
        ? await tx.insert(noticeSenders).values({ partnerId, notice: notice.key, channel, updatedAt: now }).onConflictDoNothing().returning()
        : await tx.delete(noticeSenders).where(where).returning();
    // A repeat changes nothing and says nothing.
    if (changed.length) await recordAudit(tx, actor, { action: "notice.sender_change", subject: notice.label, details: { channel, sender } }, now);
  });
}
