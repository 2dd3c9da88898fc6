import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { CsvValue } from "../../core/csv";
import { CommandError } from "../../core/errors";
import { newCredentialId, newId } from "../../core/ids";
import type { Principal } from "../../core/principal";
import type { Database, Executor } from "../../db/client";
import { preparedQuery } from "../../db/prepared";
import { type AuditActor, recordAudit } from "../audit";
import { credentialCache, type KeyRecord } from "./credential-cache";
import { apiKeys, type ClaimAuthority, partners, portalUsers } from "./schema";

export type KeyLabel = "test" | "live" | "legacy";
export const KEY_LABELS: readonly KeyLabel[] = ["test", "live", "legacy"];

export interface IssuedKey {
  id: string;
  /** Shown once; only its hash is stored. */
  key: string;
}

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

/** 32 random bytes, base64 with padding (spec 5.2: the full string including padding is the key). */
const generateKey = () => randomBytes(32).toString("base64");
const generatePassword = () => randomBytes(18).toString("base64url");

async function issueKey(db: Executor, partnerId: string, label: KeyLabel): Promise<IssuedKey> {
  const key = generateKey();
  const id = newCredentialId();
  await db.insert(apiKeys).values({ id, partnerId, label, keyHash: hashKey(key) });
  return { id, key };
}

export interface NewPartner {
  partnerId: string;
  name: string;
  admin: boolean;
  enrichment: boolean;
  keys: Record<KeyLabel, IssuedKey>;
  portal: { email: string; password: string };
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40) || "partner";

/** A partner account with one key of each label and a portal owner (or operator admin) login. */
export async function createPartner(
  db: Database,
  input: { name: string; admin?: boolean; enrichment?: boolean; email?: string; claimAuthority?: ClaimAuthority },
  audit?: Audited,
  // The benchmark makes thousands of partners: one argon2id hash reused (the caller's password and its hash) instead of one each.
  options?: { portalPassword?: { password: string; hash: string } },
): Promise<NewPartner> {
  const name = input.name.trim();
  if (!name) throw new CommandError(400, "partner name must not be empty", "name");
  const partnerId = newCredentialId();
  const email = (input.email ?? `${slug(name)}-${partnerId.slice(0, 8)}@partners.example`).toLowerCase();
  const password = options?.portalPassword?.password ?? generatePassword();
  const passwordHash = options?.portalPassword?.hash ?? (await Bun.password.hash(password, { algorithm: "argon2id" }));
  return db.transaction(async (tx) => {
    await tx.insert(partners).values({ id: partnerId, name, isAdmin: !!input.admin, enrichmentEnabled: !!input.enrichment });
    const keys = {} as Record<KeyLabel, IssuedKey>;
    for (const label of KEY_LABELS) keys[label] = await issueKey(tx, partnerId, label);
    const taken = await tx.select({ id: portalUsers.id }).from(portalUsers).where(sql`lower(${portalUsers.email}) = ${email}`);
    if (taken.length) throw new CommandError(409, `a portal user with e-mail ${email} already exists`, "email");
    await tx.insert(portalUsers).values({
      id: newId(),
      partnerId,
      email,
      name: `${name} ${input.admin ? "administrator" : "owner"}`,
      passwordHash,
      role: input.admin ? "admin" : "owner",
      // The first administrator of an operator account heads its claims; invited ones start as assessors.
      ...(input.admin ? { claimAuthority: input.claimAuthority ?? "head" } : {}),
    });
    if (audit) await recordAudit(tx, audit.actor, { action: "partner.create", subject: name, partnerId }, audit.now);
    return { partnerId, name, admin: !!input.admin, enrichment: !!input.enrichment, keys, portal: { email, password } };
  });
}

export async function listPartners(db: Database) {
  const rows = await db.select().from(partners).orderBy(asc(partners.createdAt));
  const keys = await db.select().from(apiKeys).where(isNull(apiKeys.revokedAt));
  return rows.map((p) => ({
    partnerId: p.id,
    name: p.name,
    admin: p.isAdmin,
    enrichment: p.enrichmentEnabled,
    mode: p.mode,
    suspended: p.suspended,
    createdAt: p.createdAt.toISOString(),
    keys: keys.filter((k) => k.partnerId === p.id).map((k) => ({ id: k.id, label: k.label, createdAt: k.createdAt.toISOString() })),
  }));
}

/** One account as the operator's pages show it, or null when there is none. */
export async function findPartner(db: Database, partnerId: string) {
  const [row] = await db.select().from(partners).where(eq(partners.id, partnerId));
  return row ?? null;
}

/**
 * The partners the operator's lists and pickers offer, by name: every account but the operator's own
 * (`isAdmin`, whose sign-ins are the administrators), which is no partner to pick or to look after.
 */
export async function partnerChoices(db: Database): Promise<{ value: string; label: string }[]> {
  const rows = await db.select({ value: partners.id, label: partners.name }).from(partners).where(eq(partners.isAdmin, false));
  return rows.sort((a, b) => a.label.localeCompare(b.label));
}

/** Partner names by id: of these partners (a page of an administrators' list), or of every partner. */
export async function partnerNames(db: Database, partnerIds?: string[]): Promise<Map<string, string>> {
  const ids = partnerIds && [...new Set(partnerIds)];
  if (ids?.length === 0) return new Map();
  const rows = await db
    .select({ id: partners.id, name: partners.name })
    .from(partners)
    .where(ids ? inArray(partners.id, ids) : undefined);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A batch of the operator's rows (a list's page, an export's batch) with each one's partner name, the names read once for the batch. */
export async function rowsWithPartner<T extends { partnerId: string }, Row = CsvValue[]>(
  db: Database,
  items: readonly T[],
  row: (item: T, partner: string) => Row,
): Promise<Row[]> {
  const names = await partnerNames(
    db,
    items.map((item) => item.partnerId),
  );
  return items.map((item) => row(item, names.get(item.partnerId) ?? ""));
}

export async function countPartners(db: Database): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(partners);
  return row?.n ?? 0;
}

/**
 * Change what authentication knows of a partner (keys, mode, flags) in one transaction that also
 * tells every instance (NOTIFY, delivered at commit); once committed, this instance forgets its
 * cached keys and waits until every running instance has confirmed it did too (SharedCache.settle),
 * so the very next request sees the change whichever instance it reaches.
 */
async function changeCredentials<T>(db: Database, change: (tx: Executor) => Promise<T & { partnerId: string }>): Promise<T & { partnerId: string }> {
  let token: string | undefined;
  const result = await db.transaction(async (tx) => {
    const changed = await change(tx);
    token = await credentialCache.announce(tx, changed.partnerId);
    return changed;
  });
  await credentialCache.settle(result.partnerId, token);
  return result;
}

/** Who made a change and when: its audit row is written in the change's transaction (the operator's CLI passes none). */
export interface Audited {
  actor: AuditActor;
  now: Date;
}

/** Revoke the partner's active keys of `label` and issue a new one (shown once). */
export async function rotateKey(db: Database, partnerId: string, label: KeyLabel, audit?: Audited): Promise<IssuedKey> {
  const { id, key } = await changeCredentials(db, async (tx) => {
    const [partner] = await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).for("update");
    if (!partner) throw new CommandError(404, `no partner ${partnerId}`);
    await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.partnerId, partnerId), eq(apiKeys.label, label), isNull(apiKeys.revokedAt)));
    const issued = await issueKey(tx, partnerId, label);
    if (audit) await recordAudit(tx, audit.actor, { action: "key.rotate", subject: issued.id, details: { label } }, audit.now);
    return { partnerId, ...issued };
  });
  return { id, key };
}

/** Revoke one active key; with `partnerId`, only a key of that partner (anything else is "no active key"). */
export async function revokeKey(
  db: Database,
  keyId: string,
  options: { partnerId?: string; audit?: Audited } = {},
): Promise<{ id: string; label: KeyLabel; partnerId: string }> {
  return changeCredentials(db, async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt), options.partnerId ? eq(apiKeys.partnerId, options.partnerId) : undefined))
      .returning({ id: apiKeys.id, label: apiKeys.label, partnerId: apiKeys.partnerId });
    if (!row) throw new CommandError(404, `no active key ${keyId}`);
    const { audit } = options;
    if (audit) await recordAudit(tx, audit.actor, { action: "key.revoke", subject: row.id, details: { label: row.label } }, audit.now);
    return row;
  });
}

export interface PartnerKey {
  id: string;
  label: KeyLabel;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Every key of one partner (active and revoked; never the key itself, which is stored only as a hash), newest first. */
export async function partnerKeys(db: Database, partnerId: string): Promise<PartnerKey[]> {
  return db
    .select({ id: apiKeys.id, label: apiKeys.label, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.partnerId, partnerId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Change a partner's account flags or mode (404 for an unknown partner); `within` writes the audit row in the same transaction. */
const updatePartner = (
  db: Database,
  partnerId: string,
  values: Partial<typeof partners.$inferInsert>,
  within?: (tx: Executor, before: typeof partners.$inferSelect) => Promise<void>,
) =>
  changeCredentials(db, async (tx) => {
    const [before] = await tx.select().from(partners).where(eq(partners.id, partnerId)).for("update");
    if (!before) throw new CommandError(404, `no partner ${partnerId}`);
    await tx.update(partners).set(values).where(eq(partners.id, partnerId));
    if (within) await within(tx, before);
    return { partnerId };
  });

/** An administrator's change to another account, audited under the partner's name. */
const adminAudit = (audit: Audited | undefined, action: string) =>
  audit &&
  ((tx: Executor, before: typeof partners.$inferSelect) => recordAudit(tx, audit.actor, { action, subject: before.name, partnerId: before.id }, audit.now));

export async function setEnrichment(db: Database, partnerId: string, enabled: boolean, audit?: Audited) {
  await updatePartner(db, partnerId, { enrichmentEnabled: enabled }, adminAudit(audit, enabled ? "partner.enrichment_on" : "partner.enrichment_off"));
}

/** Suspend (every key refused, portal closed) or reinstate a partner account. */
export async function setSuspended(db: Database, partnerId: string, suspended: boolean, audit?: Audited) {
  await updatePartner(db, partnerId, { suspended }, adminAudit(audit, suspended ? "partner.suspend" : "partner.reinstate"));
}

/** The account toggle of spec 3 (set env_live / set env_test), on both surfaces. */
export async function setAccountMode(db: Database, partnerId: string, mode: "test" | "live", audit?: Audited) {
  await updatePartner(
    db,
    partnerId,
    { mode },
    audit && ((tx, before) => recordAudit(tx, audit.actor, { action: "account.mode", subject: mode, details: { from: before.mode, to: mode } }, audit.now)),
  );
}

const NOT_GENUINE = "authorization is not genuine: the partner id, authorization id and key do not match";

const selectKeyRecord = preparedQuery("select_key_record", (db, name) =>
  db
    .select({
      keyPartnerId: apiKeys.partnerId,
      label: apiKeys.label,
      keyHash: apiKeys.keyHash,
      revokedAt: apiKeys.revokedAt,
      name: partners.name,
      isAdmin: partners.isAdmin,
      enrichmentEnabled: partners.enrichmentEnabled,
      mode: partners.mode,
      suspended: partners.suspended,
    })
    .from(apiKeys)
    .innerJoin(partners, eq(partners.id, apiKeys.partnerId))
    .where(eq(apiKeys.id, sql.placeholder("keyId")))
    .prepare(name),
);

const keyRecord = (db: Database, keyId: string): Promise<KeyRecord | undefined> =>
  credentialCache.through(
    keyId,
    async () => (await selectKeyRecord(db, { keyId }))[0],
    (record) => record.keyPartnerId,
  );

/** Verify the envelope's credentials (ids already normalised) and say who is calling. */
export async function authenticate(db: Database, credentials: { partnerId: string; keyId: string; key: string }): Promise<Principal> {
  const row = await keyRecord(db, credentials.keyId);
  // Hash even when nothing matched so a miss takes as long as a wrong key.
  const presented = Buffer.from(hashKey(credentials.key), "hex");
  const expected = Buffer.from(row?.keyHash ?? "0".repeat(64), "hex");
  const keyMatches = timingSafeEqual(presented, expected);
  if (!row || !keyMatches || row.keyPartnerId !== credentials.partnerId) throw new CommandError(401, NOT_GENUINE);
  if (row.revokedAt) throw new CommandError(401, "authorization is not genuine: this key has been revoked");
  if (row.suspended) throw new CommandError(403, "this partner account is suspended");
  return {
    partnerId: credentials.partnerId,
    partnerName: row.name,
    isAdmin: row.isAdmin,
    enrichmentEnabled: row.enrichmentEnabled,
    keyId: credentials.keyId,
    keyLabel: row.label,
    mode: row.label === "legacy" ? row.mode : row.label,
  };
}
