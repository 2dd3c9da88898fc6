import { Elysia } from "elysia";
import { DeliveryRows, type DeliveryView, EndpointPage, type EndpointRow, WebhooksPage } from "../../../views/webhooks/webhooks";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { parseWith } from "../../core/validation";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";

import { recordAudit } from "../audit/service";
import {
  type DeliveryRecord,
  deleteEndpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  registerEndpoint,
  registerInput,
  replayDelivery,
  sendTestEvent,
  updateEndpoint,
  updateInput,
  urlRules,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
} from "./service";

const endpointRow = (e: WebhookEndpoint): EndpointRow => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.eventTypes,
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  failingSince: e.failingSince,
  createdAt: e.createdAt,
});

const deliveryView = (d: DeliveryRecord): DeliveryView => ({
  id: d.id,
  eventType: d.eventType,
  url: d.url,
  status: d.status,
  nextAttemptAt: d.status === "pending" ? d.nextAttemptAt : null,
  createdAt: d.createdAt,
  attempts: d.attemptLog.map((a) => ({
    number: a.number,
    at: a.createdAt,
    url: a.url,
    requestHeaders: a.requestHeaders,
    requestBody: a.requestBody,
    responseStatus: a.responseStatus,
    responseBody: a.responseBody,
    error: a.error,
    latencyMs: a.latencyMs,
  })),
});

/** The ticked event types (one checkbox sends a string, several an array). */
const chosenEvents = (body: unknown): string[] => {
  const events = (body as { events?: unknown } | undefined)?.events;
  return Array.isArray(events) ? events.filter((e): e is string => typeof e === "string") : typeof events === "string" ? [events] : [];
};

/** Form fields as the command seeds take them, so the same schema words the refusals. */
const endpointSeed = (body: unknown) => {
  const form = formValues(body);
  return { url: form.url ?? "", events: chosenEvents(body), ...(form.description?.trim() ? { description: form.description } : {}) };
};

const isNotFound = (error: unknown) => error instanceof CommandError && error.status === 404;

/** Partner pages for webhook endpoints: register, settings, secrets, test events, the delivery log with replay. */
export const webhookPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const rules = urlRules(deps.config);

  async function endpointPage(
    request: Request,
    viewer: PortalViewer,
    csrf: string,
    endpointId: string,
    extra: Partial<Parameters<typeof EndpointPage>[0]> = {},
  ) {
    const endpoint = await findEndpoint(db, viewer.partnerId, endpointId);
    const deliveries = await listDeliveries(db, viewer.partnerId, { endpointId }, { limit: 20 });
    const values = { url: endpoint.url, description: endpoint.description ?? "", enabled: endpoint.enabled ? "on" : "" };
    return page(
      request,
      { title: "Webhook endpoint", active: "webhooks", viewer, csrf },
      <EndpointPage
        endpoint={endpointRow(endpoint)}
        types={WEBHOOK_EVENT_TYPES}
        deliveries={deliveries.items.map(deliveryView)}
        more={deliveries.nextCursor ? `/portal/webhooks/${endpointId}/deliveries?cursor=${deliveries.nextCursor}` : null}
        values={values}
        events={endpoint.eventTypes}
        csrf={csrf}
        {...extra}
      />,
    );
  }

  const endpointIdOf = (param: string) => {
    const id = normaliseUuid(param);
    if (!id) throw new CommandError(404, "no such webhook endpoint");
    return id;
  };

  /** Run an endpoint action; refusals (another partner's endpoint: 404) become a page with the message. */
  async function act(
    request: Request,
    viewer: PortalViewer,
    csrf: string,
    set: { status?: unknown },
    param: string,
    action: (id: string) => Promise<Partial<Parameters<typeof EndpointPage>[0]>>,
  ) {
    try {
      const id = endpointIdOf(param);
      const extra = await action(id);
      return await endpointPage(request, viewer, csrf, id, extra);
    } catch (error) {
      const problem = problemOf(error);
      set.status = error instanceof CommandError ? error.status : 400;
      return page(
        request,
        { title: "Webhooks", active: "webhooks", viewer, csrf },
        <p class="problem" safe>
          {problem.message}
        </p>,
      );
    }
  }

  return new Elysia({ name: "portal-webhooks" })
    .use(portalSession(deps))
    .get(
      "/portal/webhooks",
      async ({ viewer, csrf, request }) => {
        const endpoints = await listEndpoints(db, viewer.partnerId, { limit: 50 });
        return page(
          request,
          { title: "Webhooks", active: "webhooks", viewer, csrf },
          <WebhooksPage endpoints={endpoints.items.map(endpointRow)} types={WEBHOOK_EVENT_TYPES} values={{}} events={[]} csrf={csrf} />,
        );
      },
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks",
      async ({ viewer, csrf, request, body, set }) => {
        const seed = endpointSeed(body);
        const now = new Date();
        try {
          const endpoint = await registerEndpoint(db, viewer.partnerId, parseWith(registerInput, seed), { rules, now });
          await recordAudit(db, viewer, { action: "webhook.register", subject: endpoint.url }, now);
          const endpoints = await listEndpoints(db, viewer.partnerId, { limit: 50 });
          return page(
            request,
            { title: "Webhooks", active: "webhooks", viewer, csrf },
            <WebhooksPage
              endpoints={endpoints.items.map(endpointRow)}
              types={WEBHOOK_EVENT_TYPES}
              values={{}}
              events={[]}
              created={{ endpoint: endpointRow(endpoint), secret: endpoint.secret }}
              csrf={csrf}
            />,
          );
        } catch (error) {
          set.status = 400;
          const endpoints = await listEndpoints(db, viewer.partnerId, { limit: 50 });
          return page(
            request,
            { title: "Webhooks", active: "webhooks", viewer, csrf },
            <WebhooksPage
              endpoints={endpoints.items.map(endpointRow)}
              types={WEBHOOK_EVENT_TYPES}
              values={formValues(body)}
              events={seed.events}
              problem={problemOf(error)}
              csrf={csrf}
            />,
          );
        }
      },
      { portal: "partner" },
    )
    .get("/portal/webhooks/:id", ({ viewer, csrf, request, params, set }) => act(request, viewer, csrf, set, params.id, async () => ({})), {
      portal: "partner",
    })
    .get(
      "/portal/webhooks/:id/deliveries",
      async ({ viewer, csrf, params, query, set }) => {
        try {
          const id = endpointIdOf(params.id);
          const list = await listDeliveries(db, viewer.partnerId, { endpointId: id }, { limit: 20, cursor: query.cursor || undefined });
          return (
            <DeliveryRows
              deliveries={list.items.map(deliveryView)}
              more={list.nextCursor ? `/portal/webhooks/${id}/deliveries?cursor=${list.nextCursor}` : null}
              csrf={csrf}
            />
          );
        } catch (error) {
          // Another partner's endpoint (404), or a cursor that is not one (400).
          if (!(error instanceof CommandError)) throw error;
          set.status = error.status;
          return (
            <tr>
              <td colspan="5" class="problem" safe>
                {error.message}
              </td>
            </tr>
          );
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/:id",
      async ({ viewer, csrf, request, params, body, set }) => {
        const seed = { ...endpointSeed(body), enabled: formValues(body).enabled === "on" };
        try {
          const id = endpointIdOf(params.id);
          const now = new Date();
          const { endpoint } = await updateEndpoint(db, viewer.partnerId, parseWith(updateInput, { endpointId: id, ...seed }), { rules, now });
          await recordAudit(
            db,
            viewer,
            { action: "webhook.update", subject: endpoint.url, details: { enabled: endpoint.enabled, events: endpoint.eventTypes } },
            now,
          );
          return await endpointPage(request, viewer, csrf, id, { message: "Saved." });
        } catch (error) {
          const id = normaliseUuid(params.id);
          // Not this partner's endpoint (or none at all): 404, and nothing of it is shown.
          const notFound = () => {
            set.status = 404;
            return page(request, { title: "Webhooks", active: "webhooks", viewer, csrf }, <p class="problem">No such webhook endpoint.</p>);
          };
          if (!id || isNotFound(error)) return notFound();
          set.status = 400;
          try {
            return await endpointPage(request, viewer, csrf, id, { problem: problemOf(error), values: formValues(body), events: seed.events });
          } catch (again) {
            if (isNotFound(again)) return notFound();
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
          const endpoint = await findEndpoint(db, viewer.partnerId, id);
          await recordAudit(db, viewer, { action: "webhook.reveal_secret", subject: endpoint.url }, new Date());
          return { secret: { value: endpoint.secret, note: "The endpoint's signing secret. Keep it on your server only." } };
        }),
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/:id/rotate",
      ({ viewer, csrf, request, params, set }) =>
        act(request, viewer, csrf, set, params.id, async (id) => {
          const now = new Date();
          const { endpoint } = await updateEndpoint(db, viewer.partnerId, { endpointId: id, rotateSecret: true }, { rules, now });
          await recordAudit(db, viewer, { action: "webhook.rotate_secret", subject: endpoint.url }, now);
          return {
            secret: {
              value: endpoint.secret,
              note: "The new signing secret. The previous one keeps signing alongside for 24 hours, so you can switch without losing a delivery.",
            },
          };
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
          const now = new Date();
          const { endpoint } = await deleteEndpoint(db, viewer.partnerId, endpointIdOf(params.id), now);
          await recordAudit(db, viewer, { action: "webhook.delete", subject: endpoint.url }, now);
          set.headers.location = "/portal/webhooks";
          set.status = 303;
          return "";
        } catch (error) {
          set.status = error instanceof CommandError ? error.status : 400;
          return page(
            request,
            { title: "Webhooks", active: "webhooks", viewer, csrf },
            <p class="problem" safe>
              {problemOf(error).message}
            </p>,
          );
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/webhooks/deliveries/:id/replay",
      async ({ viewer, csrf, params, set }) => {
        const id = normaliseUuid(params.id);
        try {
          if (!id) throw new CommandError(404, "no such delivery");
          const delivery = await replayDelivery(db, viewer.partnerId, id, new Date());
          await recordAudit(db, viewer, { action: "webhook.replay", subject: delivery.url, details: { eventType: delivery.eventType } }, new Date());
          return <DeliveryRows deliveries={[deliveryView(delivery)]} more={null} csrf={csrf} />;
        } catch (error) {
          set.status = error instanceof CommandError ? error.status : 400;
          return (
            <tr>
              <td colspan="5" class="problem" safe>
                {problemOf(error).message}
              </td>
            </tr>
          );
        }
      },
      { portal: "partner" },
    );
};
