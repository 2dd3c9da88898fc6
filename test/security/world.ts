/**
 * The security suites' world: partner B with one of everything (consumer with a document, an
 * approved test policy with a claim and a financing plan, a live policy waiting for review, a
 * wallet credit, a webhook endpoint with a delivery, a default secret, a staff member), partner A
 * who attacks it, and an operator administrator. `snapshot(partnerId)` reads every row of the
 * database that belongs to a partner, found through the schema itself (partner_id columns and
 * foreign keys), so "nothing of B changed" covers tables added later too.
 */
import { expect } from "bun:test";
import { sql } from "drizzle-orm";
import type { Database } from "../../src/db/client";
import { apiLogFor } from "../../src/modules/api-log/buffer";
import { queueMessage } from "../../src/modules/messages";
import { dispatchOutboxEvents } from "../../src/modules/webhooks/dispatcher";
import { type Browser, signedIn } from "../portal/browser";
import { individual, PNG_BASE64, type TestApp, type TestPartner, testApp } from "../support/harness";
import { insureSeed, productCases, watDate } from "../support/policies";

/** Tables that belong to no partner (shared caches, the service's own secrets). */
const GLOBAL_TABLES = new Set(["public_holidays", "registry_lookups", "service_secrets"]);

async function rows(db: Database, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  const result = await db.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, unknown>[];
}

let plan: Promise<Map<string, string>> | undefined;

/** For each table, the condition that selects one partner's rows (`$partner` stands for the id), from the schema's own keys. */
function tenantConditions(db: Database): Promise<Map<string, string>> {
  plan ??= (async () => {
    const tables = (await rows(db, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`)).map(
      (r) => r.table_name as string,
    );
    const columns = await rows(
      db,
      sql`select table_name, column_name from information_schema.columns where table_schema = 'public' and column_name = 'partner_id'`,
    );
    const foreignKeys = await rows(
      db,
      sql`select kcu.table_name, kcu.column_name, ccu.table_name as ref_table
          from information_schema.table_constraints tc
          join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
          join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
          where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public'`,
    );
    const conditions = new Map<string, string>([["partners", "id = $partner"]]);
    for (const c of columns) conditions.set(c.table_name as string, "partner_id = $partner");
    // Children of partner-owned tables, as deep as they go (portal_sessions → portal_users → partner).
    for (let changed = true; changed; ) {
      changed = false;
      for (const fk of foreignKeys) {
        const table = fk.table_name as string;
        const parent = conditions.get(fk.ref_table as string);
        if (conditions.has(table) || !parent || fk.ref_table === table) continue;
        conditions.set(table, `${fk.column_name} in (select id from ${fk.ref_table} where ${parent})`);
        changed = true;
      }
    }
    // B's API log holds B's own requests, which B may keep making during a test: what must never change
    // is a row in B's log that B's keys did not make (one A caused).
    if (conditions.has("api_requests"))
      conditions.set("api_requests", "partner_id = $partner and key_id not in (select id from api_keys where partner_id = $partner)");
    // A payment provider's callbacks name the funding by the provider's reference, not a key (a forged one names nothing: it is not read).
    if (tables.includes("funding_callbacks"))
      conditions.set(
        "funding_callbacks",
        "(provider, provider_reference) in (select provider, provider_reference from wallet_fundings where partner_id = $partner)",
      );
    // A claim's flags name it by its id alone (the signals module sits below claims: no declared key).
    if (tables.includes("claim_flags")) conditions.set("claim_flags", "claim_id in (select id from claims where partner_id = $partner)");
    // The payout provider's callbacks name the transfer by our reference.
    if (tables.includes("payout_callbacks"))
      conditions.set(
        "payout_callbacks",
        "(provider, reference) in (select p.provider, p.reference from claim_payouts p join claims c on c.id = p.claim_id where c.partner_id = $partner)",
      );
    const orphans = tables.filter((table) => !conditions.has(table) && !GLOBAL_TABLES.has(table));
    if (orphans.length)
      throw new Error(`no way to tell which partner owns rows of ${orphans.join(", ")}: give them a partner_id or a foreign key, or list them as global`);
    return conditions;
  })();
  return plan;
}

/** Every row of the database that belongs to `partnerId`, table by table, as JSON text (sorted). */
export async function snapshot(db: Database, partnerId: string): Promise<Record<string, string[]>> {
  if (!/^[0-9a-f-]{36}$/.test(partnerId)) throw new Error(`not a partner id: ${partnerId}`);
  // Rows the API log still holds in memory count too.
  await apiLogFor(db).flush();
  const result: Record<string, string[]> = {};
  for (const [table, condition] of await tenantConditions(db)) {
    const found = await rows(db, sql.raw(`select row_to_json(t)::text as row from ${table} t where ${condition.replaceAll("$partner", `'${partnerId}'`)}`));
    result[table] = found.map((r) => r.row as string).sort();
  }
  return result;
}

/** Expect nothing of `partnerId` to differ from `before`, naming the tables that did. */
export async function expectUnchanged(db: Database, partnerId: string, before: Record<string, string[]>, what: string) {
  const after = await snapshot(db, partnerId);
  const changed = Object.keys(after).filter((table) => JSON.stringify(after[table]) !== JSON.stringify(before[table]));
  expect({ what, changed }).toEqual({ what, changed: [] });
}

/** Strings of B that A must never be shown (unless A sent them itself). */
export function leaksIn(text: string, markers: string[], sent = ""): string[] {
  return markers.filter((m) => text.includes(m) && !sent.includes(m));
}

interface Victim {
  partner: TestPartner;
  consumer: { id: string; uuid: string; email: string; name: string };
  /** Approved test policy (vehicle third-party), with a claim and a financing plan. */
  policy: { reference: string; productCode: string; policyNo: string; certToken: string; consumerId: string };
  /** A live policy waiting for an administrator (credit life). */
  pending: { reference: string; productCode: string; consumerId: string };
  claimNo: string;
  /** A complaint about the claim, with a document. */
  complaintNo: string;
  planNo: string;
  endpoint: { id: string; url: string; secret: string };
  deliveryId: string;
  defaultSecret: string;
  topUpReference: string;
  staff: { id: string; email: string };
  /** An e-mail of B's to its consumer, with an HTML part (queued: the outbox's pages show it). */
  messageId: string;
  browser: Browser;
}

export interface World {
  t: TestApp;
  a: TestPartner;
  b: Victim;
  admin: TestPartner;
  /** Everything of B that A must never be shown. */
  markers: string[];
}

async function ok(answer: Promise<any>, what: string) {
  const value = await answer;
  if (value.exctnFdbck?.id !== 75) throw new Error(`${what}: ${JSON.stringify(value.exctnFdbck)}`);
  return value;
}

/** Partner B with one of everything; partner A and an administrator beside it. */
async function buildWorld(t: TestApp): Promise<World> {
  const [a, partner, admin] = await Promise.all([
    t.partner({ enrichment: true }),
    t.partner({ enrichment: true, name: "Victim Bank" }),
    t.partner({ admin: true }),
  ]);
  const tag = crypto.randomUUID().slice(0, 8);
  const email = `bartholomew.${tag}@victim.example`;
  const registered = await ok(
    partner.run(
      "prfl entity",
      individual({
        name: { first: "Bartholomew", last: `Victimson${tag}` },
        eMail: email,
        socialID: { type: "nidd", id: "12345678901", image: PNG_BASE64 },
        taxId: "TIN-0099999",
      }),
    ),
    "B registers a consumer",
  );
  const consumer = { id: registered.id as string, uuid: registered.id_uuid as string, email, name: `Victimson${tag}` };

  const vehicle = productCases["vhcl-tprt-1111"]!;
  await ok(partner.run(`dump ipck_${vehicle.code}*PRMM`, vehicle.quote), "B quotes");
  const issued = await ok(partner.run(`entt_${consumer.id}: insure`, insureSeed(vehicle, { id: `BREF${tag}` })), "B insures");
  const status = await ok(partner.run(`dump entt_${consumer.id}|insr_${vehicle.code}-${issued.id}*STATUS`), "B reads its policy");
  const policy = {
    reference: issued.id as string,
    productCode: vehicle.code,
    policyNo: status.policyNo as string,
    certToken: String(status.certUrl).split("/").pop()!,
    consumerId: consumer.id,
  };

  await ok(partner.run("wallet topup", { amount: 1_000_000, reference: `b-topup-${tag}` }, "live"), "B tops up");
  const credit = productCases["crlt-sme1-1111"]!;
  await ok(partner.run(`dump ipck_${credit.code}*PRMM`, credit.quote, "live"), "B quotes live");
  const live = await ok(partner.run(`entt_${consumer.id}: insure`, insureSeed(credit, { id: `BLIVE${tag}` }), "live"), "B insures live");
  if (live.status !== "p") throw new Error(`B's live credit-life policy should wait for review, not ${live.status}`);
  const pending = { reference: live.id as string, productCode: credit.code, consumerId: consumer.id };

  const claim = await ok(
    partner.run("claim submit", {
      policy: policy.reference,
      incidentDate: watDate(0),
      description: `B's claim ${tag}`,
      amount: 5000,
      reference: `b-claim-${tag}`,
      documents: [{ name: `b-evidence-${tag}.png`, content: PNG_BASE64 }],
    }),
    "B claims",
  );
  const financed = await ok(
    partner.run("payment financeLoan", { policy: policy.reference, downPayment: 3000, installments: 4, frequency: "weekly", firstDueDate: watDate() }),
    "B finances",
  );
  await ok(partner.run("payment recordInstallment", { planNo: financed.planNo, amount: 3000, reference: `b-pay-${tag}` }), "B pays an installment");

  const url = `http://127.0.0.1:9/b-hook-${tag}`;
  const endpoint = await ok(partner.run("webhook register", { url, description: `B's endpoint ${tag}` }), "B registers an endpoint");
  await dispatchOutboxEvents(t.database.db, new Date(), { batch: 1000 });
  const deliveries = await ok(partner.run("webhook deliveries", { endpointId: endpoint.endpointId }), "B lists deliveries");
  const secret = await ok(partner.run("webhook secret"), "B reads its default secret");

  const complaint = await ok(
    partner.run("complaint file", {
      complainant: { name: `B Complainant ${tag}`, email: `b-complainant-${tag}@victim.example` },
      category: "claim_delay",
      description: `B's complaint ${tag}`,
      claimNo: claim.claimNo,
      reference: `b-complaint-${tag}`,
      documents: [{ name: `b-complaint-evidence-${tag}.png`, content: PNG_BASE64 }],
    }),
    "B files a complaint",
  );

  const browser = await signedIn(t, partner.portal);
  const staffEmail = `b-staff-${tag}@victim.example`;
  const invited = await browser.post("/portal/team", { email: staffEmail, name: "B Staff" });
  if (invited.status !== 200) throw new Error(`B invites staff: ${invited.status}`);
  const staffId = (await rows(t.database.db, sql`select id from portal_users where email = ${staffEmail}`))[0]!.id as string;

  const messageId = (await t.database.db.transaction((tx) =>
    queueMessage(
      tx,
      {
        partnerId: partner.partnerId,
        channel: "email",
        kind: "policy.issued",
        recipient: email,
        recipientName: `Bartholomew Victimson${tag}`,
        consumerId: consumer.uuid,
        subject: `B's policy ${tag}`,
        body: `B's message ${tag}`,
        html: `<p>B's message ${tag}</p>`,
        dedupeKey: `b-message-${tag}`,
      },
      new Date(),
    ),
  ))!;

  const b: Victim = {
    partner,
    consumer,
    policy,
    pending,
    claimNo: claim.claimNo,
    complaintNo: complaint.complaintNo,
    planNo: financed.planNo,
    endpoint: { id: endpoint.endpointId, url, secret: endpoint.secret },
    deliveryId:
      deliveries.list[0]?.deliveryId ?? (await ok(partner.run("webhook test", { endpointId: endpoint.endpointId }), "B tests its endpoint")).deliveryId,
    defaultSecret: secret.secret,
    topUpReference: `b-topup-${tag}`,
    staff: { id: staffId, email: staffEmail },
    messageId,
    browser,
  };
  const markers = [
    consumer.id,
    consumer.uuid,
    consumer.email,
    consumer.name,
    policy.reference,
    policy.policyNo,
    policy.certToken,
    pending.reference,
    b.claimNo,
    `b-claim-${tag}`,
    b.complaintNo,
    `B Complainant ${tag}`,
    `b-complaint-${tag}`,
    `b-evidence-${tag}`,
    b.planNo,
    `b-pay-${tag}`,
    b.endpoint.id,
    `b-hook-${tag}`,
    b.endpoint.secret,
    b.deliveryId,
    b.defaultSecret,
    b.topUpReference,
    b.staff.id,
    b.staff.email,
    b.messageId,
    `B's message ${tag}`,
    partner.portal.email,
    partner.partnerId,
    "Victim Bank",
    ...Object.values(partner.keys).flatMap((k) => [k.id, k.key]),
  ];
  return { t, a, b, admin, markers };
}

/** A world on a fresh app (one per test file; the database is the file's shared one). */
export async function world(overrides: Parameters<typeof testApp>[0] = {}): Promise<World> {
  return buildWorld(await testApp({ WEBHOOK_ALLOW_PRIVATE: "true", ...overrides }));
}
