/**
 * Templates to messages: variables filled in (escaped in HTML), a template's variables checked against
 * the ones its notice may use, and an SMS's length in segments.
 */
import { CommandError } from "../../core/errors";
import { type Notice, type TemplateForm, VARIABLES, variablesOf } from "./catalogue";

const VARIABLE = /\{\{\s*([A-Za-z][\w]*)\s*\}\}/g;

/** The longest texts a template may hold: an SMS of four GSM-7 parts, a long e-mail. */
export const MAX_SMS_CHARS = 612;
const MAX_EMAIL_BODY_CHARS = 5000;
const MAX_SUBJECT_CHARS = 150;

export interface TemplateText {
  subject?: string | null;
  body: string;
}

/** The variables a text names ({{name}}), in order, each once. */
const variablesIn = (text: string): string[] => [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1]!))];

/**
 * Refuse a template its notice cannot fill: a variable it does not know (named, with the ones it may
 * use), an empty text, or a text too long. The field is `subject` or `body`.
 */
export function checkTemplate(notice: Notice, form: TemplateForm, text: TemplateText): void {
  const allowed = variablesOf(notice);
  const fields: [string, string | null | undefined, number][] =
    form === "email"
      ? [
          ["subject", text.subject, MAX_SUBJECT_CHARS],
          ["body", text.body, MAX_EMAIL_BODY_CHARS],
        ]
      : [["body", text.body, MAX_SMS_CHARS]];
  for (const [field, value, max] of fields) {
    const label = field === "subject" ? "The subject" : "The text";
    if (!value?.trim()) throw new CommandError(400, `${label} is required`, field);
    if (value.length > max) throw new CommandError(400, `${label} is too long: at most ${max} characters (it has ${value.length})`, field);
    const unknown = variablesIn(value).filter((v) => !allowed.includes(v));
    if (unknown.length)
      throw new CommandError(
        400,
        `${unknown.map((v) => `{{${v}}}`).join(", ")} ${unknown.length === 1 ? "is not a variable" : "are not variables"} of this message; it may use ${allowed.map((v) => `{{${v}}}`).join(", ")}`,
        field,
      );
    // A brace left over is a variable mistyped ({{policyNo}, {policyNo}}): refused rather than sent as typed.
    if (/\{\{|\}\}/.test(value.replace(VARIABLE, ""))) throw new CommandError(400, `${label} has an unfinished variable: write variables as {{name}}`, field);
  }
}

/** A text with its variables filled in as plain text (an SMS, a subject, an e-mail's text part). */
export const fillText = (text: string, values: Record<string, string>) => text.replace(VARIABLE, (_, name: string) => values[name] ?? "");

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * An e-mail's text as HTML paragraphs: the template's words and the values both escaped, links made
 * links (only http and https ones), blank lines between paragraphs.
 */
export function fillHtml(text: string, values: Record<string, string>): string {
  const html = text
    .split(VARIABLE)
    .map((part, i) => {
      if (i % 2 === 0) return escapeHtml(part);
      const value = values[part] ?? "";
      return VARIABLES[part]?.link && /^https?:\/\//.test(value) ? `<a href="${escapeHtml(value)}">${escapeHtml(value)}</a>` : escapeHtml(value);
    })
    .join("");
  return html
    .split(/\n\s*\n/)
    .map((p) => `<p>${p.trim().replaceAll("\n", "<br>")}</p>`)
    .join("\n");
}

// The GSM 03.38 alphabet: its basic characters count one, those of its extension table two.
const GSM_BASIC = new Set("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà");
const GSM_EXTENDED = new Set("^{}\\[~]|€\f");

interface SmsLength {
  encoding: "GSM-7" | "UCS-2";
  characters: number;
  segments: number;
}

/** How many parts an SMS is sent in: GSM-7 160 characters, or 153 each when split; otherwise UCS-2, 70 or 67 each. */
export function smsLength(text: string): SmsLength {
  let gsm = 0;
  for (const c of text) {
    if (GSM_BASIC.has(c)) gsm += 1;
    else if (GSM_EXTENDED.has(c)) gsm += 2;
    else {
      const units = text.length; // UTF-16 code units, as UCS-2 counts them
      return { encoding: "UCS-2", characters: units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: "GSM-7", characters: gsm, segments: gsm <= 160 ? 1 : Math.ceil(gsm / 153) };
}

/**
 * An SMS's values: the naira sign is outside GSM-7 and would make every SMS with an amount a UCS-2
 * one of 70 characters a part, so SMS say NGN.
 */
export const smsValues = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.replaceAll("₦", "NGN ")]));
