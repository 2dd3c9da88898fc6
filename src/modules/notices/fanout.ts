/**
 * The notices fan-out: every outbox event a notice answers becomes its messages to the insured, once.
 * Its own cursor on the outbox (noticed_at, born set for the events no notice answers) is claimed
 * FOR UPDATE SKIP LOCKED and set in the transaction that queues the messages, and each message's
 * dedupe key (`<event id>:<channel>`) makes a repeat harmless besides.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Config } from "../../core/config";
import { lastCoverDay } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { certificateUrl } from "../certificates";
import { claims } from "../claims";
import { consumerName, consumers } from "../consumers";
import { outboxEvents } from "../events";
import { type MessageChannel, type OutgoingMessage, queueMessages, reachable } from "../messages";
import { findPolicyByReference, type PolicyRecord, policies } from "../policies";
import { type Brand, brandOf } from "./branding";
import { type Notice, noticeFor, type TemplateForm } from "./catalogue";
import { brandValues, composeEmail, composeSms, payloadValues, type Values } from "./compose";
import { partnerSends, type TemplateInEffect, templatesInEffect } from "./templates";

type OutboxEvent = typeof outboxEvents.$inferSelect;

/** Who a notice goes to, and what the templates may say of them. */
interface Recipient {
  name: string;
  email: string | null;
  phone: string | null;
  language: "en" | "pcm";
  remindersOff: boolean;
  consumerId: string | null;
  about: string;
  values: Values;
}

const CHANNELS: readonly MessageChannel[] = ["email", "sms"];

/** A consumer's contact and preferences. */
async function consumerRecipient(db: Executor, policy: PolicyRecord) {
  const [consumer] = await db.select().from(consumers).where(eq(consumers.id, policy.consumerId));
  if (!consumer) return null;
  const profile = consumer.profile;
  return {
    name: consumerName(profile),
    email: consumer.email ?? (typeof profile.eMail === "string" ? profile.eMail : null),
    phone: typeof profile.phoneNo === "string" ? profile.phoneNo : null,
    language: consumer.language,
    remindersOff: consumer.remindersOff,
    consumerId: consumer.id,
  };
}

const policyValues = (config: Config, policy: PolicyRecord): Values => ({
  policyNo: policy.policyNo ?? "",
  certificateLink: certificateUrl(config, policy),
  lastDay: lastCoverDay(policy.coverEnd),
});

/**
 * Who an event's notice goes to: a policy's consumer (policy events by the policy's reference, claim
 * events by the claim's policy), or a complaint's complainant as the complaint names them.
 */
async function recipientOf(db: Executor, config: Config, event: OutboxEvent, notice: Notice): Promise<Recipient | null> {
  const payload = event.payload;
  if (notice.about === "complaint") {
    const complainant = (payload.complainant ?? {}) as Record<string, unknown>;
    const field = (name: string) => (typeof complainant[name] === "string" ? (complainant[name] as string) : null);
    return {
      name: field("name") ?? "",
      email: field("email"),
      phone: field("phone"),
      language: "en",
      remindersOff: false,
      consumerId: null,
      about: `complaint:${String(payload.id ?? payload.complaintNo ?? "")}`,
      values: { ...payloadValues(payload), insuredName: field("name") ?? "" },
    };
  }
  let policy: PolicyRecord | null = null;
  let about: string;
  if (notice.about === "claim") {
    const [claim] = await db
      .select({ id: claims.id, policyId: claims.policyId })
      .from(claims)
      .where(and(eq(claims.partnerId, event.partnerId), eq(claims.claimNo, String(payload.claimNo))));
    if (!claim) return null;
    policy = (await db.select().from(policies).where(eq(policies.id, claim.policyId)))[0] ?? null;
    about = `claim:${claim.id}`;
  } else {
    policy = await findPolicyByReference(db, event.partnerId, String(payload.id));
    about = `policy:${policy?.id}`;
  }
  return policy && policyRecipient(db, config, policy, about, payloadValues(payload));
}

/** A policy's consumer as a notice's recipient, with the policy's values and `values` of the occasion. */
export async function policyRecipient(db: Executor, config: Config, policy: PolicyRecord, about: string, values: Values): Promise<Recipient | null> {
  const consumer = await consumerRecipient(db, policy);
  if (!consumer) return null;
  return { ...consumer, about, values: { ...policyValues(config, policy), ...values, insuredName: consumer.name } };
}

/** A partner's brand, templates and choices, read once per fan-out pass. */
interface PartnerSetting {
  brand: Brand;
  templates: Map<string, TemplateInEffect>;
  sends: Set<string>;
}

/** Each partner's setting, read at most once per pass (`now`: the templates in effect then). */
export function partnerSettings(db: Executor, config: Config, now: Date) {
  const settings = new Map<string, PartnerSetting>();
  return async (partnerId: string) => {
    let setting = settings.get(partnerId);
    if (!setting) {
      setting = {
        brand: await brandOf(db, config, partnerId),
        templates: await templatesInEffect(db, partnerId, now),
        sends: await partnerSends(db, partnerId),
      };
      settings.set(partnerId, setting);
    }
    return setting;
  };
}

/** Why a message is kept but not sent, if it is not. */
function suppression(notice: Notice, channel: MessageChannel, recipient: Recipient, setting: PartnerSetting): string | null {
  if (setting.sends.has(`${notice.key}:${channel}`)) return "the partner sends this message themselves";
  if (notice.reminder && recipient.remindersOff) return "the insured turned reminders off";
  return null;
}

/**
 * The messages of one occasion (an event, an installment's day): each channel the recipient has an
 * address on, in their language, each with the dedupe key `<occasion>:<channel>`.
 */
export function noticeMessages(partnerId: string, occasion: string, notice: Notice, recipient: Recipient, setting: PartnerSetting): OutgoingMessage[] {
  const values = { ...recipient.values, ...brandValues(setting.brand) };
  const messages: OutgoingMessage[] = [];
  for (const channel of CHANNELS) {
    const address = channel === "email" ? recipient.email : recipient.phone;
    if (!address || !reachable(channel, address.trim())) continue;
    const form: TemplateForm = channel === "email" ? "email" : recipient.language === "pcm" ? "sms-pcm" : "sms";
    const template = setting.templates.get(`${notice.key}:${form}`)!;
    const text = channel === "email" ? composeEmail(template, values, setting.brand) : { body: composeSms(template, values) };
    messages.push({
      partnerId,
      channel,
      kind: notice.key,
      recipient: address,
      recipientName: recipient.name || null,
      consumerId: recipient.consumerId,
      about: recipient.about,
      ...text,
      language: channel === "email" ? "en" : recipient.language,
      dedupeKey: `${occasion}:${channel}`,
      suppressed: suppression(notice, channel, recipient, setting),
    });
  }
  return messages;
}

/**
 * Turn up to `batch` waiting events into their messages, in one transaction: claimed SKIP LOCKED, so
 * passes running at once (another instance, the webhook fan-out holding some) take different events.
 * Returns how many events it handled.
 */
export async function noticeOutboxEvents(db: Database, config: Config, now: Date, options: { batch?: number } = {}): Promise<number> {
  return db.transaction(async (tx) => {
    const events = await tx
      .select()
      .from(outboxEvents)
      .where(isNull(outboxEvents.noticedAt))
      .orderBy(outboxEvents.createdAt)
      .limit(options.batch ?? 100)
      .for("update", { skipLocked: true });
    if (!events.length) return 0;
    const settingOf = partnerSettings(tx, config, now);
    const outgoing: OutgoingMessage[] = [];
    for (const event of events) {
      const notice = noticeFor(event);
      // An event whose policy, claim or recipient is gone, or who has no address, says nothing.
      const recipient = notice && (await recipientOf(tx, config, event, notice));
      if (notice && recipient) outgoing.push(...noticeMessages(event.partnerId, event.id, notice, recipient, await settingOf(event.partnerId)));
    }
    await queueMessages(tx, outgoing, now);
    await tx
      .update(outboxEvents)
      .set({ noticedAt: now })
      .where(
        inArray(
          outboxEvents.id,
          events.map((e) => e.id),
        ),
      );
    return events.length;
  });
}
