import type { NoticeRow, PreviewView } from "../../../views/notices/settings";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import type { MessageChannel } from "../messages";
import type { Brand } from "./branding";
import { FORM_WORDS, NOTICES, type Notice, type TemplateForm, VARIABLES, variablesOf } from "./catalogue";
import { composeSms, sampleValues } from "./compose";
import { checkTemplate, fillHtml, fillText, smsLength, type TemplateText } from "./render";
import type { TemplateInEffect } from "./templates";

const CHANNEL_FORMS: Record<MessageChannel, TemplateForm[]> = { email: ["email"], sms: ["sms", "sms-pcm"] };
const CHANNEL_WORDS: Record<MessageChannel, string> = { email: "E-mail", sms: "SMS" };

export const templateHref = (notice: Notice, form: TemplateForm) => `/portal/message-settings/${notice.key}/${form}`;

/** The Messages list: each notice, per channel who sends it and each template's state. `editable` gives the partner's actions. */
export function noticeRows(templates: Map<string, TemplateInEffect>, sends: Set<string>, editable: boolean): NoticeRow[] {
  return NOTICES.map((notice) => ({
    key: notice.key,
    label: notice.label,
    reminder: !!notice.reminder,
    channels: (["email", "sms"] as const).map((channel) => ({
      channel,
      label: CHANNEL_WORDS[channel],
      partnerSends: sends.has(`${notice.key}:${channel}`),
      senderAction: editable ? `/portal/message-settings/${notice.key}/sender/${channel}` : undefined,
      templates: CHANNEL_FORMS[channel].map((form) => ({
        form,
        label: FORM_WORDS[form],
        edited: !!templates.get(`${notice.key}:${form}`)?.edited,
        href: editable ? templateHref(notice, form) : undefined,
      })),
    })),
  }));
}

/**
 * A template's refusal as the editor shows it: in its own words, beside its field. The portal's usual
 * rewording (inWords) would turn the variables it names, {{claimNo}}, into field labels.
 */
export function templateProblem(error: unknown): FormProblem {
  if (!(error instanceof CommandError)) throw error;
  return { message: error.message, input: error.field };
}

/** The editor's title: the notice and which of its templates. */
export const editorTitle = (notice: Notice, form: TemplateForm) => `${notice.label}: ${FORM_WORDS[form]}`;

export const variableList = (notice: Notice) => variablesOf(notice).map((name) => ({ name, words: VARIABLES[name]?.words ?? name }));

/** The preview of a template as typed, with sample values; a template that cannot be rendered says why instead. */
export function previewOf(notice: Notice, form: TemplateForm, text: TemplateText, brand: Brand): PreviewView & { problem?: FormProblem } {
  try {
    checkTemplate(notice, form, text);
  } catch (error) {
    return { problem: templateProblem(error) };
  }
  const values = sampleValues(notice, brand);
  // The portal's own address of the logo: the page's policy loads images from itself only.
  if (form === "email")
    return {
      email: { subject: fillText(text.subject ?? "", values), safeBodyHtml: fillHtml(text.body, values), brand: { ...brand, logoUrl: brand.logoPath } },
    };
  const sms = composeSms({ body: text.body }, values);
  return { sms: { text: sms, ...smsLength(sms) } };
}
