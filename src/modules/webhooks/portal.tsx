import { Elysia } from "elysia";
import { DeliveryRows, EndpointPage, WebhooksPage } from "../../../views/webhooks/webhooks";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { parseWith } from "../../core/validation";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { notFound, redirectTo } from "../../portal/kit";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { inWords } from "../../portal/words";
import { watToday } from "../../products/policy-helpers";
import { endpointSeedFrom, registerInput, updateInput } from "./model";
import { DELIVERY_CSV_COLUMNS, deliveryCsvRow, deliveryView, endpointRow, endpointValues } from "./presenter";
import {
  deleteEndpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  registerEndpoint,
  replayDelivery,
  revealSecret,
  sendTestEvent,
  updateEndpoint,
  urlRules,
  WEBHOOK_EVENT_TYPES,
} from "./service";

type EndpointExtra = Partial<Parameters<typeof EndpointPage>[0]>;
type ListExtra = Partial<Parameters<typeof WebhooksPage>[0]>;
type Status = { status?: number | string; headers: Record<string, unknown> };

const isNotFound = (error: unknown) => error instanceof CommandError && error.status === 404;
const statusOf = (error: unknown) => (error instanceof CommandError ? error.status : 400);

const endpointIdOf = (param: string) => {
  const id = normaliseUuid(param);
  if (!id) throw new CommandError(404, "no such webhook endpoint");
  return id;
};

/** A refusal as one table row of the delivery log (the rows are swapped in by htmx). */
const problemRow = (message: string) => (
  <tr>
    <td colspan="5" class="problem" safe>
      {message}
    </td>
  </tr>
);

/** Partner pages for webhook endpoints: register, settings, secrets, test events, the delivery log with replay. */
export const webhookPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const rules = urlRules(deps.config);
  const shell = (viewer: PortalViewer, csrf: string, title = "Webhooks") => ({ title, active: "webhooks", viewer, csrf });
  const deliveriesMore = (endpointId: string, cursor: string | null) => (cursor ? `/portal/webhooks/${endpointId}/deliveries?cursor=${cursor}` : null);

  async function listPage(request: Request, viewer: PortalViewer, csrf: string, extra: ListExtra = {}) {
    const endpoints = await listEndpoints(db, viewer.partnerId, { limit: 50 });
    const rows = endpoints.items.map(endpointRow);
    return page(request, shell(viewer, csrf), <WebhooksPage endpoints={rows} types={WEBHOOK_EVENT_TYPES} values={{}} events={[]} csrf={csrf} {...extra} />);
  }

  async function endpointPage(request: Request, viewer: PortalViewer, csrf: string, endpointId: string, extra: EndpointExtra = {}) {
    const endpoint = await findEndpoint(db, viewer.partnerId, endpointId);
    const deliveries = await listDeliveries(db, viewer.partnerId, { endpointId }, { limit: 20 });
    return page(
      request,
      shell(viewer, csrf, "Webhook endpoint"),
      <EndpointPage
        endpoint={endpointRow(endpoint)}
        types={WEBHOOK_EVENT_TYPES}
        deliveries={deliveries.items.map(deliveryView)}
        more={deliveriesMore(endpointId, deliveries.nextCursor)}
        values={endpointValues(endpoint)}
        events={endpoint.eventTypes}
        csrf={csrf}
        {...extra}
      />,
    );
  }

  /** A refusal as a page of its own (another partner's endpoint: 404). */
  function problemPage(request: Request, viewer: PortalViewer, csrf: string, set: Status, error: unknown) {
    set.status = statusOf(error);
    return page(
      request,
      shell(viewer, csrf),
      <p class="problem" safe>
        {problemOf(error).message}
      </p>,
    );
  }

  /** Run an endpoint action, then show the endpoint with what the action says. */
  async function act(request: Request, viewer: PortalViewer, csrf: string, set: Status, param: string, action: (id: string) => Promise<EndpointExtra>) {
    try {
      const id = endpointIdOf(param);
      return await endpointPage(request, viewer, csrf, id, await action(id));
    } catch (error) {
      return problemPage(request, viewer, csrf, set, error);
    }
  }

  return new Elysia({ name: "portal-webhooks" })
    .use(portalSession(deps))
    .get("/portal/webhooks", ({ viewer, csrf, request }) => listPage(request, viewer, csrf), { portal: "partner" })
    .post(
      "/portal/webhooks",
      async ({ viewer, csrf, request, body, set }) => {
        const form = formValues(body);
        const seed = endpointSeedFrom(form, body);
        try {
          const endpoint = await registerEndpoint(db, viewer.partnerId, parseWith(registerInput, seed), { rules, now: new Date(), actor: viewer });
          return listPage(request, viewer, csrf, { created: { endpoint: endpointRow(endpoint), secret: endpoint.secret } });
        } catch (error) {
          set.status = 400;
          return listPage(request, viewer, csrf, { values: form, events: seed.events, problem: problemOf(error) });
        }
      },
      { portal: "partner" },
    )
    .get("/portal/webhooks/:id", ({ viewer, csrf, request, params, set }) => act(request, viewer, csrf, set, params.id, async () => ({})), {
      portal: "partner",
    })
    .get(
      "/portal/webhooks/:id/deliveries.csv",
      async ({ viewer, params, set }) =>
        csvOrRefusal(set, async () => {
          // Another partner's endpoint is a 404 before anything is sent.
          const { id: endpointId } = await findEndpoint(db, viewer.partnerId, endpointIdOf(params.id));
          return csvDownload({
            filename: `webhook-deliveries-${watToday(new Date())}`,
            columns: DELIVERY_CSV_COLUMNS,
            page: (limit, cursor) => listDeliveries(db, viewer.partnerId, { endpointId }, { limit, cursor }),
            rows: async (items) => items.map(deliveryCsvRow),
          });
        }),
      { portal: "partner" },
    )
    .get(
      "/portal/webhooks/:id/deliveries",
      async ({ viewer, csrf, params, query, set }) => {
        try {
          const id = endpointIdOf(params.id);
          const list = await listDeliveries(db, viewer.partnerId, { endpointId: id }, { limit: 20, cursor: query.cursor || undefined });
          return <DeliveryRows deliveries={list.items.map(deliveryView)} more={deliveriesMore(id, list.nextCursor)} csrf={csrf} />;
        } catch (error) {
          // Another partner's endpoint (404), or a cursor that is not one (400).
          if (!(error instanceof CommandError)) throw error;
          set.status = error.status;
          return problemRow(inWords(error.message));
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/:id",
      async ({ viewer, csrf, request, params, body, set }) => {
        const form = formValues(body);
        const seed = { ...endpointSeedFrom(form, body), enabled: form.enabled === "on" };
        // Not this partner's endpoint (or none at all): 404, and nothing of it is shown.
        const missing = () => page(request, shell(viewer, csrf), notFound(set, "No such webhook endpoint."));
        const id = normaliseUuid(params.id);
        if (!id) return missing();
        try {
          await updateEndpoint(db, viewer.partnerId, parseWith(updateInput, { endpointId: id, ...seed }), { rules, now: new Date(), actor: viewer });
          return await endpointPage(request, viewer, csrf, id, { message: "Saved." });
        } catch (error) {
          if (isNotFound(error)) return missing();
          set.status = 400;
          try {
            return await endpointPage(request, viewer, csrf, id, { problem: problemOf(error), values: form, events: seed.events });
          } catch (again) {
            if (isNotFound(again)) return missing();
            throw again;
          }
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/:id/reveal",
      ({ viewer, csrf, request, params, set }) =>
        act(request, viewer, csrf, set, params.id, async (id) => {
          const endpoint = await revealSecret(db, viewer.partnerId, id, viewer, new Date());
          return { secret: { value: endpoint.secret, note: "The endpoint's signing secret. Keep it on your server only." } };
        }),
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/:id/rotate",
      ({ viewer, csrf, request, params, set }) =>
        act(request, viewer, csrf, set, params.id, async (id) => {
          const { endpoint } = await updateEndpoint(db, viewer.partnerId, { endpointId: id, rotateSecret: true }, { rules, now: new Date(), actor: viewer });
          const note = "The new signing secret. The previous one keeps signing alongside for 24 hours, so you can switch without losing a delivery.";
          return { secret: { value: endpoint.secret, note } };
        }),
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/:id/test",
      ({ viewer, csrf, request, params, set }) =>
        act(request, viewer, csrf, set, params.id, async (id) => {
          await sendTestEvent(db, viewer.partnerId, id, new Date());
          return { message: "A webhook.test event is on its way: its delivery appears below." };
        }),
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/:id/delete",
      async ({ viewer, csrf, request, params, set }) => {
        try {
          await deleteEndpoint(db, viewer.partnerId, endpointIdOf(params.id), new Date(), viewer);
          return redirectTo(request, set, "/portal/webhooks");
        } catch (error) {
          return problemPage(request, viewer, csrf, set, error);
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/deliveries/:id/replay",
      async ({ viewer, csrf, params, set }) => {
        try {
          const id = normaliseUuid(params.id);
          if (!id) throw new CommandError(404, "no such delivery");
          const delivery = await replayDelivery(db, viewer.partnerId, id, new Date(), viewer);
          return <DeliveryRows deliveries={[deliveryView(delivery)]} more={null} csrf={csrf} />;
        } catch (error) {
          set.status = statusOf(error);
          return problemRow(problemOf(error).message);
        }
      },
      { portal: "partner" },
    );
};
