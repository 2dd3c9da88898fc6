/** A template and its values to the text of a message: an e-mail with its branded HTML, an SMS. */
import { NoticeEmail } from "../../../views/notices/email";
import { formatNaira, toKobo } from "../../core/money";
import type { Brand } from "./branding";
import { type Notice, VARIABLES, variablesOf } from "./catalogue";
import { fillHtml, fillText, smsValues } from "./render";
import type { TemplateInEffect } from "./templates";

export type Values = Record<string, string>;

interface ComposedEmail {
  subject: string;
  body: string;
  html: string;
}

/** What every notice may say of its sender. */
export const brandValues = (brand: Brand): Values => ({
  partnerName: brand.name,
  supportPhone: brand.supportPhone ?? "",
  supportEmail: brand.supportEmail ?? "",
});

export function composeEmail(template: Pick<TemplateInEffect, "subject" | "body">, values: Values, brand: Brand): ComposedEmail {
  const subject = fillText(template.subject ?? "", values);
  return {
    subject,
    body: fillText(template.body, values),
    html: String(NoticeEmail({ brand, subject, safeBodyHtml: fillHtml(template.body, values) })),
  };
}

export const composeSms = (template: Pick<TemplateInEffect, "body">, values: Values): string => fillText(template.body, smsValues(values));

/** The sample values the editor's preview and a test send fill in: the partner's own brand, made-up facts. */
export function sampleValues(notice: Notice, brand: Brand): Values {
  const samples = Object.fromEntries(variablesOf(notice).map((v) => [v, VARIABLES[v]?.sample ?? ""]));
  return {
    ...samples,
    ...brandValues(brand),
    supportPhone: brand.supportPhone ?? samples.supportPhone!,
    supportEmail: brand.supportEmail ?? samples.supportEmail!,
  };
}

/** A complaint's outcome (complaint.resolved), as the message says it. */
const COMPLAINT_OUTCOME_WORDS: Record<string, string> = { upheld: "upheld", partly_upheld: "upheld in part", not_upheld: "not upheld" };

const text = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : undefined);
const money = (value: unknown) => (typeof value === "number" ? formatNaira(toKobo(value)) : undefined);

/**
 * What an event's payload tells its notice (docs/webhooks.md shows the payloads): each notice's
 * templates use the ones they declare, so one reading serves them all.
 */
export function payloadValues(payload: Record<string, unknown>): Values {
  const cancellation = (payload.cancellation ?? {}) as Record<string, unknown>;
  const voucher = (payload.voucher ?? {}) as Record<string, unknown>;
  const found: Record<string, string | undefined> = {
    policyNo: text(payload.policyNo),
    lastDay: text(payload.lastDay),
    daysLeft: text(payload.daysLeft),
    refund: money(cancellation.refund),
    cancelledFrom: text(cancellation.effectiveDate),
    reason: text(payload.statusNote),
    version: text(payload.version),
    claimNo: text(payload.claimNo),
    amount: money(payload.amount),
    payable: money(payload.payable ?? voucher.payable),
    note: text(payload.statusNote),
    complaintRef: text(payload.complaintNo),
    outcome: typeof payload.outcome === "string" ? COMPLAINT_OUTCOME_WORDS[payload.outcome] : undefined,
    redress: money(payload.redress),
  };
  return Object.fromEntries(Object.entries(found).filter((e): e is [string, string] => e[1] !== undefined));
}
