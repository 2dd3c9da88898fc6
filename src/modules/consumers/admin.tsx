import { Elysia } from "elysia";
import { AllConsumersList, adminConsumerHref, ConsumerRows } from "../../../views/consumers/consumers";
import type { AppDeps } from "../../http/context";
import { moreHref, PAGE_SIZE } from "../../portal/kit";
import { page } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { consumerRow } from "./presenter";
import { listConsumers } from "./service";

/** Every partner's consumers, searchable (the operator's view; read-only). */
export const consumerAdmin = (deps: AppDeps) =>
  new Elysia({ name: "admin-consumers" }).use(portalSession(deps)).get(
    "/admin/consumers",
    async ({ viewer, csrf, request, query }) => {
      const search = typeof query.q === "string" ? query.q.slice(0, 100) : "";
      const list = await listConsumers(deps.database.db, { search }, { limit: PAGE_SIZE, cursor: query.cursor || undefined });
      const more = moreHref("/admin/consumers", { q: search }, list.nextCursor);
      const rows = list.items.map(consumerRow);
      if (query.rows) return <ConsumerRows rows={rows} more={more} hrefOf={adminConsumerHref} />;
      return page(request, { title: "Consumers", active: "consumers", viewer, csrf }, <AllConsumersList rows={rows} more={more} search={search} />);
    },
    { portal: "admin" },
  );
