import { Elysia } from "elysia";
import { ConsumerRows } from "../../../views/consumers/consumers";
import type { AppDeps } from "../../http/context";
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
      const list = await listConsumers(deps.database.db, { search }, { limit: 25, cursor: query.cursor || undefined });
      const more = list.nextCursor ? `/admin/consumers?rows=1&q=${encodeURIComponent(search)}&cursor=${list.nextCursor}` : null;
      const rows = list.items.map(consumerRow);
      if (query.rows) return <ConsumerRows rows={rows} more={more} hrefBase={null} />;
      return page(
        request,
        { title: "Consumers", active: "consumers", viewer, csrf },
        <section>
          <h1>All partners' consumers</h1>
          <form class="search" role="search" action="/admin/consumers" method="get">
            <label for="q">Search by name, e-mail or phone</label>
            <input id="q" type="search" name="q" value={search} />
            <button type="submit">Search</button>
          </form>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Class</th>
                <th scope="col">E-mail</th>
                <th scope="col">Phone</th>
                <th scope="col">Registered</th>
              </tr>
            </thead>
            <tbody>
              <ConsumerRows rows={rows} more={more} hrefBase={null} />
            </tbody>
          </table>
        </section>,
      );
    },
    { portal: "admin" },
  );
