import { Elysia } from "elysia";
import { MessageDetail, MessageList, MessageRows } from "../../../views/messages/messages";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { notFound, type ResponseSet } from "../../portal/kit";
import { type ListQuery, listAnswer, partnerScopeOf, withPartnerFilter } from "../../portal/list";
import { page } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { partnerChoices, partnerNames, rowsWithPartner } from "../partners";
import { MESSAGE_CSV_COLUMNS, messageCsvRow, messageRow, messageView, STATUS_CHOICES } from "./presenter";
import { waitingMessages } from "./queue";
import { listMessages, type MessageRecord, type MessageScope, messageDetail, messageFiltersOf } from "./records";

/**
 * The HTML part is the sender's markup, never trusted: served on its own page under the service's
 * Content-Security-Policy with `sandbox` added (a unique origin: no scripts, no forms, no cookies),
 * which also keeps it from loading anything from elsewhere (a tracking pixel) or being framed.
 */
function htmlPart(set: ResponseSet, html: string) {
  set.headers["content-type"] = "text/html; charset=utf-8";
  set.headers["content-security-policy"] = `${set.headers["content-security-policy"]}; sandbox`;
  set.headers["cache-control"] = "no-store";
  return html;
}

/** The Messages pages: the operator's every partner's (/admin/messages) and a partner's own (/portal/messages). */
export const messagePages = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "messages", viewer, csrf });
  const source = (
    base: string,
    scope: MessageScope,
    rows: (items: MessageRecord[]) => ReturnType<typeof messageRow>[] | Promise<ReturnType<typeof messageRow>[]>,
  ) => ({
    path: base,
    values: (query: ListQuery) => ({
      ...(query.channel?.trim() ? { channel: query.channel.trim() } : {}),
      ...(query.status?.trim() ? { status: query.status.trim() } : {}),
      ...(query.recipient?.trim() ? { recipient: query.recipient.trim() } : {}),
    }),
    filters: messageFiltersOf,
    fetch: (filters: ReturnType<typeof messageFiltersOf>, paging: { limit: number; cursor?: string }) => listMessages(db, scope, filters, paging),
    rows,
  });
  const operatorList = withPartnerFilter((scope) =>
    source("/admin/messages", scope, async (items) => {
      const names = await partnerNames(db, [...new Set(items.map((m) => m.partnerId))]);
      return items.map((m) => messageRow(m, `/admin/messages/${m.id}`, names.get(m.partnerId) ?? ""));
    }),
  );
  const partnerList = (partnerId: string) => source("/portal/messages", { partnerId }, (items) => items.map((m) => messageRow(m, `/portal/messages/${m.id}`)));
  const filename = () => `messages-${watToday(new Date())}`;

  return new Elysia({ name: "messages-pages" })
    .use(portalSession(deps))
    .get(
      "/admin/messages",
      (ctx) =>
        listAnswer(ctx, operatorList, {
          shell: shell(ctx.viewer, ctx.csrf, "Messages"),
          rows: (list) => <MessageRows rows={list.rows} more={list.more} withPartner />,
          page: async (list) => (
            <MessageList
              intro="Every e-mail and SMS the service sends, for every partner: where each stands, newest first."
              action="/admin/messages"
              statuses={STATUS_CHOICES}
              partners={await partnerChoices(db)}
              waiting={await waitingMessages(db)}
              list={list}
            />
          ),
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/messages.csv",
      ({ query, set }) =>
        csvOrRefusal(set, () => {
          const filters = messageFiltersOf(query);
          return csvDownload({
            filename: filename(),
            columns: [...MESSAGE_CSV_COLUMNS, "Partner"],
            page: (limit, cursor) => listMessages(db, partnerScopeOf(query), filters, { limit, cursor }),
            rows: (items) => rowsWithPartner(db, items, (m, partner) => [...messageCsvRow(m), partner]),
          });
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/messages/:id",
      async ({ viewer, csrf, request, params, set }) => {
        const found = await messageDetail(db, {}, params.id);
        if (!found) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such message."));
        const partnerName = (await partnerNames(db, [found.message.partnerId])).get(found.message.partnerId) ?? "";
        const view = messageView(found.message, found.log, { back: "/admin/messages", html: `/admin/messages/${found.message.id}/html` }, partnerName);
        return page(request, shell(viewer, csrf, view.title), <MessageDetail message={view} />);
      },
      { portal: "admin" },
    )
    .get(
      "/admin/messages/:id/html",
      async ({ viewer, csrf, request, params, set }) => {
        const found = await messageDetail(db, {}, params.id);
        if (!found?.message.html) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such message, or it has no HTML part."));
        return htmlPart(set, found.message.html);
      },
      { portal: "admin" },
    )
    .get(
      "/portal/messages",
      (ctx) =>
        listAnswer(ctx, partnerList(ctx.viewer.partnerId), {
          shell: shell(ctx.viewer, ctx.csrf, "Messages"),
          rows: (list) => <MessageRows rows={list.rows} more={list.more} />,
          page: (list) => (
            <MessageList
              intro="The e-mails and SMS the service sent your customers for you, and where each stands, newest first."
              action="/portal/messages"
              statuses={STATUS_CHOICES}
              list={list}
            />
          ),
        }),
      { portal: "partner" },
    )
    .get(
      "/portal/messages.csv",
      ({ viewer, query, set }) =>
        csvOrRefusal(set, () => {
          const filters = messageFiltersOf(query);
          return csvDownload({
            filename: filename(),
            columns: MESSAGE_CSV_COLUMNS,
            page: (limit, cursor) => listMessages(db, { partnerId: viewer.partnerId }, filters, { limit, cursor }),
            rows: async (items) => items.map(messageCsvRow),
          });
        }),
      { portal: "partner" },
    )
    .get(
      "/portal/messages/:id",
      async ({ viewer, csrf, request, params, set }) => {
        const found = await messageDetail(db, { partnerId: viewer.partnerId }, params.id);
        if (!found) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such message."));
        const view = messageView(found.message, found.log, { back: "/portal/messages", html: `/portal/messages/${found.message.id}/html` });
        return page(request, shell(viewer, csrf, view.title), <MessageDetail message={view} />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/messages/:id/html",
      async ({ viewer, csrf, request, params, set }) => {
        const found = await messageDetail(db, { partnerId: viewer.partnerId }, params.id);
        if (!found?.message.html) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such message, or it has no HTML part."));
        return htmlPart(set, found.message.html);
      },
      { portal: "partner" },
    );
};
