import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { preparedQuery } from "../../db/prepared";
import { SharedCache } from "../../db/shared-cache";
import { webhookEndpoints } from "./schema";

/**
 * Whether a partner has an enabled webhook endpoint, cached per process like keys and consumers.
 * An event of a partner without one, and without a one-off URL, has nowhere to go: it is written
 * already dispatched, so the fan-out does not spend a write per event on it (docs/performance.md).
 * Only a change that gives a partner an enabled endpoint (register, re-enable) must be announced:
 * a stale "has one" merely sends the event through the fan-out, which finds nothing to deliver.
 */
const endpointCache = new SharedCache<{ partnerId: string; has: boolean }>("webhook_endpoints_changed");

const selectEnabledEndpoint = preparedQuery("select_enabled_endpoint", (db, name) =>
  db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.partnerId, sql.placeholder("partnerId")), eq(webhookEndpoints.enabled, true), isNull(webhookEndpoints.deletedAt)))
    .limit(1)
    .prepare(name),
);

export async function hasWebhookEndpoint(db: Executor, partnerId: string): Promise<boolean> {
  const known = await endpointCache.through(
    partnerId,
    async () => ({ partnerId, has: (await selectEnabledEndpoint(db, { partnerId })).length > 0 }),
    (v) => v.partnerId,
  );
  return known!.has;
}

/** In the transaction that gives `partnerId` an enabled endpoint; call `settle` with the token after commit. */
export const announceEndpointEnabled = (tx: Executor, partnerId: string) => endpointCache.announce(tx, partnerId);
export const settleEndpointEnabled = (partnerId: string, token: string) => endpointCache.settle(partnerId, token);
