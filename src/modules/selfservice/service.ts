/** What the policyholder's page shows: their cover and their claims, as the partner's customer sees them. */
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Config } from "../../core/config";
import { CommandError } from "../../core/errors";
import type { Database } from "../../db/client";
import { productName } from "../../products";
import { certificateUrl } from "../certificates";
import { claims } from "../claims";
import { consumerName, findConsumer } from "../consumers";
import { brandOf } from "../notices";
import { consumerIdFrom, hasCertificate, listPolicies, type PolicyRecord } from "../policies";
import { mintLink } from "./links";

/** The most policies and claims the page lists (a consumer with more is a business, served by the partner). */
const MOST = 50;

/** A partner mints their consumer's link (the `consumer link` command; the messages carry it too). */
export async function consumerLink(db: Database, config: Config, partnerId: string, consumerParam: string, now: Date) {
  const consumerId = consumerIdFrom(consumerParam);
  const consumer = await findConsumer(db, partnerId, consumerId);
  if (!consumer) throw new CommandError(404, `consumer ${consumerParam.slice(0, 40)} not found: use an id prfl entity returned to you`, "seed.consumer");
  return mintLink(db, config, { partnerId, consumerId }, now);
}

export interface CoverLine {
  policyNo: string | null;
  productName: string;
  status: PolicyRecord["status"];
  coverStart: Date;
  coverEnd: Date;
  certificateUrl: string | null;
  test: boolean;
}

export interface ClaimLine {
  claimNo: string;
  policyNo: string | null;
  status: (typeof claims.$inferSelect)["status"];
  statusNote: string | null;
  claimedKobo: number;
  payableKobo: number | null;
  createdAt: Date;
  steps: { status: string; at: string }[];
}

/** The consumer's page: who, the partner's brand, their cover and their claims, newest first. */
export async function policyholderView(db: Database, config: Config, link: { partnerId: string; consumerId: string }) {
  const consumer = await findConsumer(db, link.partnerId, link.consumerId);
  if (!consumer) return null;
  const { items } = await listPolicies(db, { partnerId: link.partnerId }, { consumerId: consumer.id }, { limit: MOST });
  const cover: CoverLine[] = items.map((p) => ({
    policyNo: p.policyNo,
    productName: productName(p.productCode),
    status: p.status,
    coverStart: p.coverStart,
    coverEnd: p.coverEnd,
    certificateUrl: hasCertificate(p) ? certificateUrl(config, p) : null,
    test: p.mode === "test",
  }));
  const numbers = new Map(items.map((p) => [p.id, p.policyNo]));
  const rows = items.length
    ? await db
        .select()
        .from(claims)
        .where(
          and(
            eq(claims.partnerId, link.partnerId),
            inArray(
              claims.policyId,
              items.map((p) => p.id),
            ),
          ),
        )
        .orderBy(desc(claims.createdAt))
        .limit(MOST)
    : [];
  const claimLines: ClaimLine[] = rows.map((c) => ({
    claimNo: c.claimNo,
    policyNo: numbers.get(c.policyId) ?? null,
    status: c.status,
    statusNote: c.statusNote,
    claimedKobo: c.claimedKobo,
    payableKobo: c.payableKobo,
    createdAt: c.createdAt,
    steps: c.history.map((s) => ({ status: s.status, at: s.at })),
  }));
  return { name: consumerName(consumer.profile), brand: await brandOf(db, config, link.partnerId), cover, claims: claimLines };
}
