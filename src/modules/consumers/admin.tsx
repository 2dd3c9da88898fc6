import { Elysia } from "elysia";
import { AllConsumersList, adminConsumerHref, ConsumerDetail, ConsumerRows } from "../../../views/consumers/consumers";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { csvDownload } from "../../portal/export";
import { moreHref, notFound, PAGE_SIZE } from "../../portal/kit";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { fieldLabel } from "../../portal/words";
import { watToday } from "../../products/policy-helpers";
import type { ServiceFacts } from "../manifest";
import { partnerNames, rowsWithPartner } from "../partners";
import { CONSUMER_CSV_COLUMNS, consumerCsvRow, consumerName, consumerPolicyRow, consumerRow, profileLines } from "./presenter";
import { consumerById, consumerDocumentList, listConsumers } from "./service";

/** Every partner's consumers, searchable, and each one's page with documents and policies (the operator's view; read-only). */
export const consumerAdmin = (deps: AppDeps, { policiesOfConsumer }: ServiceFacts) => {
  const db = deps.database.db;
  return new Elysia({ name: "admin-consumers" })
    .use(portalSession(deps))
    .get(
      "/admin/consumers",
      async ({ viewer, csrf, request, query }) => {
        const search = typeof query.q === "string" ? query.q.slice(0, 100) : "";
        const list = await listConsumers(db, { search }, { limit: PAGE_SIZE, cursor: query.cursor || undefined });
        const more = moreHref("/admin/consumers", { q: search }, list.nextCursor);
        const rows = list.items.map(consumerRow);
        if (query.rows) return <ConsumerRows rows={rows} more={more} hrefOf={adminConsumerHref} />;
        return page(request, { title: "Consumers", active: "consumers", viewer, csrf }, <AllConsumersList rows={rows} more={more} search={search} />);
      },
      { portal: "admin" },
    )
    .get(
      "/admin/consumers.csv",
      ({ query }) => {
        const search = typeof query.q === "string" ? query.q.slice(0, 100) : "";
        return csvDownload({
          filename: `consumers-${watToday(new Date())}`,
          columns: ["Partner", ...CONSUMER_CSV_COLUMNS],
          page: (limit, cursor) => listConsumers(db, { search }, { limit, cursor }),
          rows: (items) => rowsWithPartner(db, items, consumerCsvRow),
        });
      },
      { portal: "admin" },
    )
    .get(
      "/admin/consumers/:id",
      async ({ viewer, csrf, request, params, set }) => {
        const id = normaliseUuid(params.id);
        const consumer = id ? await consumerById(db, id) : null;
        const shell = (title: string) => ({ title, active: "consumers", viewer, csrf });
        if (!consumer) return page(request, shell("Not found"), notFound(set, "No consumer with this id."));
        const [policies, documents, names] = await Promise.all([
          policiesOfConsumer(db, {}, consumer.id, 50),
          consumerDocumentList(db, consumer.id),
          partnerNames(db, [consumer.partnerId]),
        ]);
        return page(
          request,
          shell(consumerName(consumer.profile) || "Consumer"),
          <ConsumerDetail
            consumer={{ ...consumerRow(consumer), profile: consumer.profile }}
            lines={profileLines(consumer.profile)}
            policies={policies.map((p) => consumerPolicyRow(p, `/admin/policies/${p.id}`))}
            preferences={{ remindersOff: consumer.remindersOff, language: consumer.language }}
            operator={{
              partnerName: names.get(consumer.partnerId) ?? "—",
              documents: documents.map((d) => ({ label: fieldLabel(d.field), href: `/admin/consumers/${consumer.id}/documents/${d.field}` })),
            }}
          />,
        );
      },
      { portal: "admin" },
    );
};
