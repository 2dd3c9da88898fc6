import { Elysia } from "elysia";
import { ConsumerDetail, ConsumerForm, ConsumerList, ConsumerRows } from "../../../views/consumers/consumers";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { formValuesWithFiles, page, problemOf } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { findProduct } from "../../products";
import { seedFromForm } from "../../products/forms";
import { listPolicies } from "../policies/service";
import { consumerForm, profileValues } from "./form";
import { consumerName, consumerRow } from "./presenter";
import { findConsumer, listConsumers, registerConsumer, wireConsumerId } from "./service";

const PAGE_SIZE = 25;

const LABELS: Record<string, string> = {
  gender: "Gender",
  "dob.date": "Date of birth",
  phoneNo: "Phone",
  eMail: "E-mail",
  "addrss.addrss": "Address",
  mrtlStatus: "Marital status",
  ntnlty: "Nationality",
  stateOfOrigin: "State of origin",
  "socialID.type": "Identity document",
  "socialID.id": "Identity number",
  taxId: "Tax id",
  rc: "RC number",
};

const classOf = (value: string | undefined): "h" | "o" => (value === "o" ? "o" : "h");

/** Partner pages for consumers: list and search, register or update, detail with their policies. */
export const consumerPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  return new Elysia({ name: "portal-consumers" })
    .use(portalSession(deps))
    .get(
      "/portal/consumers",
      async ({ viewer, csrf, request, query }) => {
        const search = typeof query.q === "string" ? query.q.slice(0, 100) : "";
        const list = await listConsumers(db, { partnerId: viewer.partnerId, search }, { limit: PAGE_SIZE, cursor: query.cursor || undefined });
        const more = list.nextCursor ? `/portal/consumers?rows=1&q=${encodeURIComponent(search)}&cursor=${list.nextCursor}` : null;
        const rows = list.items.map(consumerRow);
        if (query.rows) return <ConsumerRows rows={rows} more={more} />;
        return page(request, { title: "Consumers", active: "consumers", viewer, csrf }, <ConsumerList rows={rows} more={more} search={search} />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/consumers/new",
      ({ viewer, csrf, request, query }) => {
        // Also re-draws the form when the class changes (htmx includes what was typed).
        const values = Object.fromEntries(Object.entries(query).filter(([, v]) => typeof v === "string")) as Record<string, string>;
        const consumerClass = classOf(values.class);
        return page(
          request,
          { title: "Register a consumer", active: "consumers", viewer, csrf },
          <ConsumerForm consumerClass={consumerClass} entries={consumerForm(consumerClass)} values={values} csrf={csrf} />,
        );
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
          const location = `/portal/consumers/${wireConsumerId(id)}`;
          if (request.headers.get("hx-request")) set.headers["hx-redirect"] = location;
          else {
            set.headers.location = location;
            set.status = 303;
          }
          return "";
        } catch (error) {
          set.status = 400;
          const updating = values.updating ? { wireId: values.updating, email: values.eMail ?? "" } : undefined;
          return page(
            request,
            { title: "Register a consumer", active: "consumers", viewer, csrf },
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
        if (!consumer) {
          set.status = 404;
          return page(request, { title: "Not found", active: "consumers", viewer, csrf }, <p class="problem">No consumer with this id on your account.</p>);
        }
        const policies = await listPolicies(db, { partnerId: viewer.partnerId }, { consumerId: consumer.id }, { limit: 50 });
        const values = profileValues(consumer.profile);
        const lines = Object.entries(LABELS)
          .filter(([path]) => values[path])
          .map(([path, label]) => [label, values[path]!] as [string, string]);
        return page(
          request,
          { title: consumerName(consumer.profile) || "Consumer", active: "consumers", viewer, csrf },
          <ConsumerDetail
            consumer={{ ...consumerRow(consumer), profile: consumer.profile }}
            lines={lines}
            policies={policies.items.map((p) => {
              const product = findProduct(p.productCode);
              return {
                reference: p.reference,
                productCode: p.productCode,
                productName: `${product.family.name}: ${product.productType.name}`,
                status: p.status,
                premiumKobo: p.premiumKobo,
                mode: p.mode,
                createdAt: p.createdAt,
              };
            })}
          />,
        );
      },
      { portal: "partner" },
    )
    .get(
      "/portal/consumers/:id/edit",
      async ({ viewer, csrf, request, params, set }) => {
        const id = normaliseUuid(params.id);
        const consumer = id ? await findConsumer(db, viewer.partnerId, id) : null;
        const email = consumer?.profile.eMail as string | undefined;
        if (!consumer || !email) {
          set.status = 404;
          return page(
            request,
            { title: "Not found", active: "consumers", viewer, csrf },
            <p class="problem">No consumer with an e-mail and this id on your account.</p>,
          );
        }
        return page(
          request,
          { title: "Update consumer", active: "consumers", viewer, csrf },
          <ConsumerForm
            consumerClass={consumer.class}
            entries={consumerForm(consumer.class)}
            values={profileValues(consumer.profile)}
            csrf={csrf}
            updating={{ wireId: wireConsumerId(consumer.id), email }}
          />,
        );
      },
      { portal: "partner" },
    );
};
