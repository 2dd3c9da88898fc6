/** The partner's Messages settings: who sends each message, its templates with a live preview, the branding. */
import { dateTime } from "../format";
import { Badge, Done, type FormProblem, type FormValues, HxForm, Input, ProblemSummary, Table } from "../portal/ui";
import type { EmailBrand } from "./email";

interface TemplateCell {
  form: string;
  label: string;
  edited: boolean;
  /** The editor; absent for the operator, who only looks. */
  href?: string;
}

interface ChannelCell {
  channel: "email" | "sms";
  label: string;
  partnerSends: boolean;
  /** Where "who sends it" is changed; absent for the operator, who only looks. */
  senderAction?: string;
  templates: TemplateCell[];
}

export interface NoticeRow {
  key: string;
  label: string;
  reminder: boolean;
  channels: ChannelCell[];
}

/** The list of messages: per channel who sends it and whether each template is the default or edited. */
export function MessageSettingsPage(props: { rows: NoticeRow[]; csrf: string; partnerName?: string; done?: string | null }) {
  return (
    <section id="message-settings">
      <div class="title-row">
        <h1>{props.partnerName ? <span safe>{`Message templates of ${props.partnerName}`}</span> : "Message templates"}</h1>
        {props.partnerName ? "" : <a href="/portal/branding">Branding</a>}
      </div>
      <p>
        What the service tells your insured, by e-mail and SMS, when something happens to their policy, claim or complaint. Where you tell them yourself (your
        webhook receives every event), choose "You send it": the service then keeps the message without sending it.
      </p>
      <Done text={props.done} />
      <Table columns={["Message", "E-mail", "SMS"]} caption="Messages to the insured">
        {props.rows.map((row) => (
          <tr>
            <td>
              <span safe>{row.label}</span>
              {row.reminder ? (
                <>
                  {" "}
                  <Badge tone="info" text="Reminder: the insured may turn it off" />
                </>
              ) : (
                ""
              )}
            </td>
            {row.channels.map((cell) => (
              <td>
                <p>
                  {cell.partnerSends ? <Badge tone="wait" text="You send it" /> : <Badge tone="ok" text="The service sends it" />}
                  {cell.senderAction ? (
                    <HxForm action={cell.senderAction} target="#message-settings" csrf={props.csrf} class="inline">
                      <input type="hidden" name="sender" value={cell.partnerSends ? "service" : "partner"} />
                      <button type="submit" class="link">
                        {cell.partnerSends ? "Let the service send it" : "We send it ourselves"}
                      </button>
                    </HxForm>
                  ) : (
                    ""
                  )}
                </p>
                <ul class="plain">
                  {cell.templates.map((t) => (
                    <li>
                      {t.href ? (
                        <a href={t.href} safe>
                          {t.label}
                        </a>
                      ) : (
                        <span safe>{t.label}</span>
                      )}{" "}
                      <span class="muted">{t.edited ? "edited" : "default"}</span>
                    </li>
                  ))}
                </ul>
              </td>
            ))}
          </tr>
        ))}
      </Table>
    </section>
  );
}

export interface PreviewView {
  /** The e-mail's body as HTML, escaped already (src/modules/notices/render.ts). */
  email?: { subject: string; safeBodyHtml: string; brand: EmailBrand };
  sms?: { text: string; segments: number; encoding: string; characters: number };
  problem?: FormProblem;
}

/** The e-mail as the insured sees it, drawn with the portal's style sheet: the header's colour is an SVG's fill. */
function EmailPreview(props: { safeBodyHtml: string; brand: EmailBrand }) {
  const { brand, safeBodyHtml } = props;
  const contact = [brand.supportPhone, brand.supportEmail].filter(Boolean).join(" · ");
  return (
    <div class="email-preview">
      <div class="email-head">
        <svg class="email-band" aria-hidden="true" viewBox="0 0 10 10" preserveAspectRatio="none">
          <rect width="10" height="10" fill={brand.colour} />
        </svg>
        {brand.logoUrl ? <img src={brand.logoUrl} alt="" /> : ""}
        <span safe>{brand.name}</span>
      </div>
      <div class="email-body">{safeBodyHtml}</div>
      <div class="email-foot" safe>
        {contact ? `${brand.name} · Questions? ${contact}` : brand.name}
      </div>
    </div>
  );
}

/** The rendered message with sample data (swapped in by htmx as the template is typed). */
export function TemplatePreview(props: PreviewView) {
  return (
    <div id="preview" class="card" aria-live="polite">
      <h2>Preview</h2>
      {props.problem ? (
        <p class="muted" safe>
          {`The preview waits for the template to be right: ${props.problem.message}`}
        </p>
      ) : (
        ""
      )}
      {props.email ? (
        <>
          <p>
            <strong>Subject:</strong> <span safe>{props.email.subject}</span>
          </p>
          <EmailPreview {...props.email} />
        </>
      ) : (
        ""
      )}
      {props.sms ? (
        <>
          <p class="sms-preview" safe>
            {props.sms.text}
          </p>
          <p class="muted" id="sms-segments" safe>
            {`${props.sms.characters} characters, ${props.sms.segments} ${props.sms.segments === 1 ? "part" : "parts"} (${props.sms.encoding === "GSM-7" ? "plain text: 160 characters, 153 a part when split" : "special characters: 70 characters, 67 a part when split"})`}
          </p>
        </>
      ) : (
        ""
      )}
    </div>
  );
}

interface TemplateVersionView {
  at: Date;
  by: string;
  reset: boolean;
}

/** Edit one template: the text with its variables, a live preview, save, reset, a test send. */
export function TemplateEditor(props: {
  title: string;
  action: string;
  previewAction: string;
  resetAction: string;
  testAction: string;
  isEmail: boolean;
  edited: boolean;
  values: FormValues;
  variables: { name: string; words: string }[];
  preview: PreviewView;
  versions: TemplateVersionView[];
  problem?: FormProblem;
  done?: string | null;
  csrf: string;
}) {
  return (
    <section id="template-editor">
      <p>
        <a href="/portal/message-settings">← Messages</a>
      </p>
      <h1 safe>{props.title}</h1>
      <p>{props.edited ? "Your own text is in use." : "The default text is in use."}</p>
      <Done text={props.done} />
      <div class="notice-editor">
        <HxForm action={props.action} target="#template-editor" csrf={props.csrf} class="card">
          <ProblemSummary problem={props.problem} inputs={["subject", "body"]} />
          <div hx-post={props.previewAction} hx-trigger="input delay:300ms" hx-target="#preview" hx-swap="outerHTML" hx-include="closest form">
            {props.isEmail ? <Input name="subject" label="Subject" value={props.values.subject} problem={props.problem} required /> : ""}
            <Input
              name="body"
              label="Text"
              kind="textarea"
              value={props.values.body}
              problem={props.problem}
              required
              hint="Write {{name}} where a value goes."
            />
          </div>
          <button type="submit">Save</button>
        </HxForm>
        <TemplatePreview {...props.preview} />
      </div>
      <h2>Variables</h2>
      <Table columns={["Write", "For"]} caption="The variables this message may use">
        {props.variables.map((v) => (
          <tr>
            <td>
              <code safe>{`{{${v.name}}}`}</code>
            </td>
            <td safe>{v.words}</td>
          </tr>
        ))}
      </Table>
      <div class="actions">
        <HxForm action={props.testAction} target="#template-editor" csrf={props.csrf} class="inline">
          <button type="submit" class="secondary">
            Send me a test e-mail
          </button>
        </HxForm>{" "}
        {props.edited ? (
          <HxForm
            action={props.resetAction}
            target="#template-editor"
            csrf={props.csrf}
            class="inline"
            confirm="Go back to the default text? Your text stays in the history."
          >
            <button type="submit" class="secondary">
              Reset to the default
            </button>
          </HxForm>
        ) : (
          ""
        )}
      </div>
      <h2>History</h2>
      <Table
        columns={["From", "By", "What"]}
        count={props.versions.length}
        empty="Never changed: the default text has always been used."
        caption="Earlier versions"
      >
        {props.versions.map((v) => (
          <tr>
            <td safe>{dateTime(v.at)}</td>
            <td safe>{v.by}</td>
            <td>{v.reset ? "Back to the default" : "Edited"}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

/** The branding of the partner's messages: name, logo, colour, support contact. */
export function BrandingPage(props: { values: FormValues; logoUrl: string | null; problem?: FormProblem; done?: string | null; csrf: string }) {
  return (
    <section id="branding">
      <p>
        <a href="/portal/message-settings">← Messages</a>
      </p>
      <h1>Branding</h1>
      <p>
        How your messages to the insured look: every e-mail has your logo and colour at the top and your support contact at the foot; every SMS starts with your
        name.
      </p>
      <Done text={props.done} />
      <HxForm action="/portal/branding" target="#branding" csrf={props.csrf} files class="card">
        <ProblemSummary problem={props.problem} inputs={["displayName", "colour", "supportEmail", "supportPhone", "logo"]} />
        <Input
          name="displayName"
          label="Name shown to the insured"
          value={props.values.displayName}
          problem={props.problem}
          hint="Your account's name when left blank."
        />
        <Input name="colour" label="Colour" value={props.values.colour} problem={props.problem} hint="Written #rrggbb, e.g. #1f4e79." />
        <Input name="supportEmail" label="Support e-mail" kind="email" value={props.values.supportEmail} problem={props.problem} />
        <Input
          name="supportPhone"
          label="Support phone"
          value={props.values.supportPhone}
          problem={props.problem}
          hint="In international form, e.g. +2348001234567."
        />
        {props.logoUrl ? (
          <p>
            <img src={props.logoUrl} alt="Your logo" height="40" /> <Input name="removeLogo" label="Remove the logo" kind="checkbox" />
          </p>
        ) : (
          ""
        )}
        <Input name="logo" label="Logo" kind="document" problem={props.problem} hint="A PNG or JPEG of at most 100 KB." />
        <button type="submit">Save</button>
      </HxForm>
    </section>
  );
}
