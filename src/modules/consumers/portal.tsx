import { Elysia } from "elysia";
import { ConsumerDetail, ConsumerForm, ConsumerList, ConsumerRows, ContactPreferences } from "../../../views/consumers/consumers";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { csvDownload } from "../../portal/export";
import { moreHref, notFound, PAGE_SIZE, redirectTo } from "../../portal/kit";
import { formValues, formValuesWithFiles, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { consumerForm } from "../../products/consumer-form";
import { seedFromForm } from "../../products/forms";
import { watToday } from "../../products/policy-helpers";
import type { ServiceFacts } from "../manifest";
import { profileValues } from "./model";
import { CONSUMER_CSV_COLUMNS, consumerCsvRow, consumerName, consumerPolicyRow, consumerRow, profileLines } from "./presenter";
import { type ConsumerRecord, findConsumer, listConsumers, registerConsumer, setContactPreferences, wireConsumerId } from "./service";

/** The consumer page's preferences section, changeable by the partner's staff. */
const preferencesOf = (consumer: ConsumerRecord, csrf: string) => ({
  remindersOff: consumer.remindersOff,
  language: consumer.language,
  action: `/portal/consumers/${wireConsumerId(consumer.id)}/preferences`,
  csrf,
});

const classOf = (value: string | undefined): "h" | "o" => (value === "o" ? "o" : "h");

/** Partner pages for consumers: list and search, register or update, detail with their policies. */
/** Where to go once an update is saved: only back to a quote of this portal (never elsewhere). */
const returnPath = (path: string | undefined) => (path && /^\/portal\/quote\?[\w\-=&%.]*$/.test(path) ? path : undefined);

export const consumerPortal = (deps: AppDeps, { policiesOfConsumer }: ServiceFacts) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "consumers", viewer, csrf });
  const missing = (request: Request, viewer: PortalViewer, csrf: string, set: { status?: number | string; headers: Record<string, unknown> }, what: string) =>
    page(request, shell(viewer, csrf, "Not found"), notFound(set, what));
  return new Elysia({ name: "portal-consumers" })
    .use(portalSession(deps))
    .get(
      "/portal/consumers",
      async ({ viewer, csrf, request, query }) => {
        const search = typeof query.q === "string" ? query.q.slice(0, 100) : "";
        const list = await listConsumers(db, { partnerId: viewer.partnerId, search }, { limit: PAGE_SIZE, cursor: query.cursor || undefined });
        const more = moreHref("/portal/consumers", { q: search }, list.nextCursor);
        const rows = list.items.map(consumerRow);
        if (query.rows) return <ConsumerRows rows={rows} more={more} />;
        return page(request, shell(viewer, csrf, "Consumers"), <ConsumerList rows={rows} more={more} search={search} />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/consumers.csv",
      ({ viewer, query }) => {
        const search = typeof query.q === "string" ? query.q.slice(0, 100) : "";
        return csvDownload({
          filename: `consumers-${watToday(new Date())}`,
          columns: CONSUMER_CSV_COLUMNS,
          page: (limit, cursor) => listConsumers(db, { partnerId: viewer.partnerId, search }, { limit, cursor }),
          rows: async (items) => items.map((c) => consumerCsvRow(c)),
        });
      },
      { portal: "partner" },
    )
    .get(
      "/portal/consumers/new",
      ({ viewer, csrf, request, query }) => {
        // Also re-draws the form when the class changes (htmx includes what was typed).
        const values = Object.fromEntries(Object.entries(query).filter(([, v]) => typeof v === "string")) as Record<string, string>;
        const consumerClass = classOf(values.class);
        const form = <ConsumerForm consumerClass={consumerClass} entries={consumerForm(consumerClass)} values={values} csrf={csrf} />;
        return page(request, shell(viewer, csrf, "Register a consumer"), form);
      },
      { portal: "partner" },
    )
    .post(
      "/portal/consumers",
      async ({ viewer, csrf, request, body, set }) => {
        const values = await formValuesWithFiles(body);
        const consumerClass = classOf(values.class);
        const entries = consumerForm(consumerClass);
        const seed = { type: "s", class: consumerClass, ...seedFromForm(entries, values) };
        try {
          const { id } = await registerConsumer(db, viewer.partnerId, seed, { maxDocumentBytes: deps.config.MAX_DOCUMENT_BYTES });
          return redirectTo(request, set, returnPath(values.returnTo) ?? `/portal/consumers/${wireConsumerId(id)}`);
        } catch (error) {
          set.status = 400;
          const updating = values.updating ? { wireId: values.updating, email: values.eMail ?? "", returnTo: returnPath(values.returnTo) } : undefined;
          return page(
            request,
            shell(viewer, csrf, "Register a consumer"),
            <ConsumerForm consumerClass={consumerClass} entries={entries} values={values} problem={problemOf(error)} csrf={csrf} updating={updating} />,
          );
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/consumers/:id",
      async ({ viewer, csrf, request, params, set }) => {
        const id = normaliseUuid(params.id);
        const consumer = id ? await findConsumer(db, viewer.partnerId, id) : null;
        if (!consumer) return missing(request, viewer, csrf, set, "No consumer with this id on your account.");
        const policies = await policiesOfConsumer(db, { partnerId: viewer.partnerId }, consumer.id, 50);
        return page(
          request,
          shell(viewer, csrf, consumerName(consumer.profile) || "Consumer"),
          <ConsumerDetail
            consumer={{ ...consumerRow(consumer), profile: consumer.profile }}
            lines={profileLines(consumer.profile)}
            policies={policies.map((p) => consumerPolicyRow(p, `/portal/policies/${encodeURIComponent(p.reference)}`))}
            preferences={preferencesOf(consumer, csrf)}
          />,
        );
      },
      { portal: "partner" },
    )
    .post(
      "/portal/consumers/:id/preferences",
      async ({ viewer, csrf, request, params, body, set }) => {
        const id = normaliseUuid(params.id);
        const consumer = id ? await findConsumer(db, viewer.partnerId, id) : null;
        if (!consumer) return missing(request, viewer, csrf, set, "No consumer with this id on your account.");
        const values = formValues(body);
        const language = values.language;
        if (language !== "en" && language !== "pcm") {
          set.status = 400;
          const problem = { message: "Choose the language of the messages: English or Nigerian Pidgin", input: "language" };
          return page(request, shell(viewer, csrf, "Contact preferences"), <ContactPreferences {...preferencesOf(consumer, csrf)} problem={problem} />);
        }
        await setContactPreferences(db, consumer, { remindersOff: values.remindersOff === "on", language }, viewer, new Date());
        const saved = (await findConsumer(db, viewer.partnerId, consumer.id)) ?? consumer;
        return page(request, shell(viewer, csrf, "Contact preferences"), <ContactPreferences {...preferencesOf(saved, csrf)} done="Preferences saved." />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/consumers/:id/edit",
      async ({ viewer, csrf, request, params, set, query }) => {
        const id = normaliseUuid(params.id);
        const consumer = id ? await findConsumer(db, viewer.partnerId, id) : null;
        const email = consumer?.profile.eMail as string | undefined;
        if (!consumer || !email) return missing(request, viewer, csrf, set, "No consumer with an e-mail and this id on your account.");
        return page(
          request,
          shell(viewer, csrf, "Update consumer"),
          <ConsumerForm
            consumerClass={consumer.class}
            entries={consumerForm(consumer.class)}
            values={profileValues(consumer.profile)}
            csrf={csrf}
            updating={{ wireId: wireConsumerId(consumer.id), email, returnTo: returnPath(query.return) }}
          />,
        );
      },
      { portal: "partner" },
    );
};
