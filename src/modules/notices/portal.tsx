import { Elysia } from "elysia";
import { BrandingPage, MessageSettingsPage, TemplateEditor, TemplatePreview } from "../../../views/notices/settings";
import type { FormProblem, FormValues } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { download, notFound } from "../../portal/kit";
import { formValues, formValuesWithFiles, page, refusedProblem } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { findPartner } from "../partners";
import { type Brand, brandLogo, brandOf, saveBranding } from "./branding";
import type { Notice, TemplateForm } from "./catalogue";
import { editorTitle, noticeRows, previewOf, templateHref, templateProblem, variableList } from "./presenter";
import {
  formNamed,
  noticeNamed,
  partnerSends,
  resetTemplate,
  saveTemplate,
  setSender,
  templateInEffect,
  templatesInEffect,
  templateVersions,
} from "./templates";
import { sendTestMessage } from "./test-send";

type Status = { status?: number | string; headers: Record<string, unknown> };
type EditorExtra = { values?: FormValues; problem?: FormProblem; done?: string };

const brandingValues = (brand: Brand): FormValues => ({
  displayName: brand.displayName ?? "",
  colour: brand.colour,
  supportEmail: brand.supportEmail ?? "",
  supportPhone: brand.supportPhone ?? "",
});

/**
 * Partner staff's Messages settings (what the service tells their insured: who sends it, the templates
 * with a live preview, a test send, the branding) and the operator's look at a partner's; the logo's
 * public address for e-mails.
 */
export const noticesPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "message-settings", viewer, csrf });

  async function settingsPage(request: Request, viewer: PortalViewer, csrf: string, done?: string) {
    const now = new Date();
    const rows = noticeRows(await templatesInEffect(db, viewer.partnerId, now), await partnerSends(db, viewer.partnerId), true);
    return page(request, shell(viewer, csrf, "Message templates"), <MessageSettingsPage rows={rows} csrf={csrf} done={done} />);
  }

  async function editorPage(request: Request, viewer: PortalViewer, csrf: string, notice: Notice, form: TemplateForm, extra: EditorExtra = {}) {
    const now = new Date();
    const template = await templateInEffect(db, viewer.partnerId, notice, form, now);
    const values = extra.values ?? { subject: template.subject ?? "", body: template.body };
    const brand = await brandOf(db, deps.config, viewer.partnerId);
    const versions = await templateVersions(db, viewer.partnerId, notice, form);
    const href = templateHref(notice, form);
    return page(
      request,
      shell(viewer, csrf, editorTitle(notice, form)),
      <TemplateEditor
        title={editorTitle(notice, form)}
        action={href}
        previewAction={`${href}/preview`}
        resetAction={`${href}/reset`}
        testAction={`${href}/test`}
        isEmail={form === "email"}
        edited={template.edited}
        values={values}
        variables={variableList(notice)}
        preview={previewOf(notice, form, { subject: values.subject, body: values.body ?? "" }, brand)}
        versions={versions.map((v) => ({ at: v.effectiveFrom, by: v.savedBy, reset: v.body === null }))}
        problem={extra.problem}
        done={extra.done}
        csrf={csrf}
      />,
    );
  }

  /** A template page's action: the notice and form from the path (404 for ones that are not), then the editor with what it says. */
  async function onTemplate(
    request: Request,
    viewer: PortalViewer,
    csrf: string,
    set: Status,
    params: { notice: string; form: string },
    action: (notice: Notice, form: TemplateForm) => Promise<EditorExtra>,
  ) {
    let notice: Notice;
    let form: TemplateForm;
    try {
      notice = noticeNamed(params.notice);
      form = formNamed(params.form);
    } catch {
      return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such message template."));
    }
    return editorPage(request, viewer, csrf, notice, form, await action(notice, form));
  }

  async function brandingPage(request: Request, viewer: PortalViewer, csrf: string, extra: { values?: FormValues; problem?: FormProblem; done?: string } = {}) {
    const brand = await brandOf(db, deps.config, viewer.partnerId);
    return page(
      request,
      shell(viewer, csrf, "Branding"),
      <BrandingPage values={extra.values ?? brandingValues(brand)} logoUrl={brand.logoPath} problem={extra.problem} done={extra.done} csrf={csrf} />,
    );
  }

  return new Elysia({ name: "portal-notices" })
    .use(portalSession(deps))
    .get("/portal/message-settings", ({ viewer, csrf, request }) => settingsPage(request, viewer, csrf), { portal: "partner" })
    .post(
      "/portal/message-settings/:notice/sender/:channel",
      async ({ viewer, csrf, request, params, body, set }) => {
        const sender = formValues(body).sender;
        try {
          const notice = noticeNamed(params.notice);
          const channel = params.channel;
          if (channel !== "email" && channel !== "sms") throw new CommandError(404, "no such message");
          if (sender !== "service" && sender !== "partner") throw new CommandError(400, "choose who sends the message: the service or you", "sender");
          await setSender(db, viewer.partnerId, notice, channel, sender, viewer, new Date());
          const who = sender === "partner" ? "you send it yourselves; the service keeps it without sending" : "the service sends it";
          return settingsPage(request, viewer, csrf, `${notice.label} by ${channel === "email" ? "e-mail" : "SMS"}: ${who}.`);
        } catch (error) {
          const problem = refusedProblem(error, set);
          return page(
            request,
            shell(viewer, csrf, "Message templates"),
            <p class="problem" safe>
              {problem.message}
            </p>,
          );
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/message-settings/:notice/:form",
      ({ viewer, csrf, request, params, set }) => onTemplate(request, viewer, csrf, set, params, async () => ({})),
      {
        portal: "partner",
      },
    )
    .post(
      "/portal/message-settings/:notice/:form",
      ({ viewer, csrf, request, params, body, set }) =>
        onTemplate(request, viewer, csrf, set, params, async (notice, form) => {
          const values = formValues(body);
          try {
            await saveTemplate(db, viewer.partnerId, notice, form, { subject: values.subject, body: values.body ?? "" }, viewer, new Date());
            return { done: "Saved: messages written from now on use this text." };
          } catch (error) {
            const problem = templateProblem(error);
            set.status = 400;
            return { values, problem };
          }
        }),
      { portal: "partner" },
    )
    .post(
      "/portal/message-settings/:notice/:form/preview",
      async ({ viewer, params, body, set }) => {
        try {
          const notice = noticeNamed(params.notice);
          const form = formNamed(params.form);
          const values = formValues(body);
          const brand = await brandOf(db, deps.config, viewer.partnerId);
          return <TemplatePreview {...previewOf(notice, form, { subject: values.subject, body: values.body ?? "" }, brand)} />;
        } catch (error) {
          // A template that is not one (404): said in the preview's place.
          return <TemplatePreview problem={refusedProblem(error, set)} />;
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/message-settings/:notice/:form/reset",
      ({ viewer, csrf, request, params, set }) =>
        onTemplate(request, viewer, csrf, set, params, async (notice, form) => {
          await resetTemplate(db, viewer.partnerId, notice, form, viewer, new Date());
          return { done: "Back to the default text: messages written from now on use it." };
        }),
      { portal: "partner" },
    )
    .post(
      "/portal/message-settings/:notice/:form/test",
      ({ viewer, csrf, request, params, set }) =>
        onTemplate(request, viewer, csrf, set, params, async (notice, form) => {
          const queued = await sendTestMessage(db, deps.config, viewer.partnerId, notice, form, viewer, new Date());
          return { done: queued ? `A test e-mail is on its way to ${viewer.email}.` : `A test e-mail went to ${viewer.email} a moment ago: it is on its way.` };
        }),
      { portal: "partner" },
    )
    .get("/portal/branding", ({ viewer, csrf, request }) => brandingPage(request, viewer, csrf), { portal: "partner" })
    .post(
      "/portal/branding",
      async ({ viewer, csrf, request, body, set }) => {
        const values = await formValuesWithFiles(body);
        try {
          await saveBranding(
            db,
            viewer.partnerId,
            {
              displayName: values.displayName,
              colour: values.colour,
              supportEmail: values.supportEmail,
              supportPhone: values.supportPhone,
              logo: values.logo,
              removeLogo: values.removeLogo === "on",
            },
            viewer,
            new Date(),
          );
          return brandingPage(request, viewer, csrf, { done: "Saved: your messages use this branding from now on." });
        } catch (error) {
          const { logo: _logo, ...typed } = values;
          return brandingPage(request, viewer, csrf, { values: typed, problem: refusedProblem(error, set) });
        }
      },
      { portal: "partner" },
    )
    .get(
      "/admin/partners/:id/message-settings",
      async ({ viewer, csrf, request, params, set }) => {
        const id = normaliseUuid(params.id);
        const partner = id ? await findPartner(db, id) : null;
        if (!partner) return page(request, { title: "Not found", active: "partners", viewer, csrf }, notFound(set, "No such partner."));
        const rows = noticeRows(await templatesInEffect(db, partner.id, new Date()), await partnerSends(db, partner.id), false);
        return page(
          request,
          { title: "Message templates", active: "partners", viewer, csrf },
          <MessageSettingsPage rows={rows} csrf={csrf} partnerName={partner.name} />,
        );
      },
      { portal: "admin" },
    )
    .get("/brand/:id/logo", async ({ params, set }) => {
      const id = normaliseUuid(params.id);
      const logo = id ? await brandLogo(db, id) : null;
      if (!logo) {
        set.status = 404;
        return { error: "no logo" };
      }
      const response = download({ name: "logo", mime: logo.mime, bytes: logo.bytes }, "inline");
      response.headers.set("cache-control", "public, max-age=86400");
      return response;
    });
};
