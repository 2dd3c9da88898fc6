/**
 * Complaints (issue 38, item 4; docs/complaints.md): plain functions, no web framework. The command
 * endpoint, the partner's portal and the operator's desk call them (and, later, the policyholder's
 * own page calls `fileComplaint`). Every change, its audit row and its event are written in one
 * transaction; a refused request changes nothing.
 */
import { and, asc, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { CommandError } from "../../core/errors";
import { newId } from "../../core/ids";
import { toNaira as naira } from "../../core/money";
import type { Mode } from "../../core/principal";
import type { Database, Executor } from "../../db/client";
import { isUniqueViolation } from "../../db/errors";
import { watToday } from "../../products/policy-helpers";
import { type AuditActor, recordAudit } from "../audit";
import { addDays, holidaysBetween } from "../calendar";
import { claims } from "../claims";
import { recordEvent } from "../events";
import { findPolicyByNumber, findPolicyByReference, type PolicyRecord, policies, policiesByIds } from "../policies";
import type { FileSeed, NamedDocument } from "./model";
import { type ComplaintActor, type ComplaintClockSettings, checkTransition, complaintDeadlines, newComplaintNumber } from "./rules";
import { type ComplaintOutcome, type ComplaintStatus, type ComplaintStep, complaintDocuments, complaintNotes, complaints } from "./schema";

type ComplaintRow = typeof complaints.$inferSelect;

/** A complaint with the numbers of what it concerns, as every surface shows it. */
export interface ComplaintRecord extends Omit<ComplaintRow, "letter"> {
  policyNo: string | null;
  policyReference: string | null;
  claimNo: string | null;
  hasLetter: boolean;
}

interface ComplaintNote {
  kind: "internal" | "partner";
  body: string;
  by: string;
  createdAt: Date;
}

interface ComplaintDocumentInfo {
  position: number;
  name: string;
  mime: NamedDocument["mime"];
  sizeBytes: number;
  by: string;
}

export interface ComplaintDetail extends ComplaintRecord {
  notes: ComplaintNote[];
  documents: ComplaintDocumentInfo[];
}

/** Whose complaints: one partner's, or (operator) every partner's. */
export interface ComplaintScope {
  partnerId?: string;
}

const { letter: _letter, ...rowColumns } = getTableColumns(complaints);
const recordColumns = {
  ...rowColumns,
  policyNo: policies.policyNo,
  policyReference: policies.reference,
  claimNo: claims.claimNo,
  hasLetter: sql<boolean>`${complaints.letter} is not null`,
};

const selectComplaints = (db: Executor) =>
  db.select(recordColumns).from(complaints).leftJoin(policies, eq(policies.id, complaints.policyId)).leftJoin(claims, eq(claims.id, complaints.claimId));

const scoped = (scope: ComplaintScope, ...conditions: SQL[]) => and(...(scope.partnerId ? [eq(complaints.partnerId, scope.partnerId)] : []), ...conditions);

const notFound = (scope: ComplaintScope, complaintNo: string) =>
  new CommandError(404, `no complaint ${complaintNo}${scope.partnerId ? " among this partner's complaints" : ""}`, "seed.complaintNo");

/** The link to a resolved complaint's letter, as the partner's portal serves it. */
export const letterPath = (complaintNo: string) => `/portal/complaints/${complaintNo}/letter.pdf`;

/** What a message to the complainant needs, and which complaint it is: every complaint event's payload. */
function complaintPayload(complaint: ComplaintRecord, baseUrl: string) {
  return {
    complaintNo: complaint.complaintNo,
    ...(complaint.reference ? { reference: complaint.reference } : {}),
    status: complaint.status,
    category: complaint.category,
    ...(complaint.policyNo ? { policyNo: complaint.policyNo } : {}),
    ...(complaint.claimNo ? { claimNo: complaint.claimNo } : {}),
    complainant: { name: complaint.complainantName, email: complaint.complainantEmail, phone: complaint.complainantPhone },
    receivedOn: complaint.receivedOn,
    acknowledgeDue: complaint.acknowledgeDueOn,
    resolveDue: complaint.resolveDueOn,
    ...(complaint.status === "resolved"
      ? {
          outcome: complaint.outcome,
          redress: naira(complaint.redressKobo ?? 0),
          currency: "NGN",
          letterUrl: `${baseUrl}${letterPath(complaint.complaintNo)}`,
        }
      : {}),
  };
}

const EVENT_OF: Partial<Record<ComplaintStatus, string>> = {
  received: "complaint.received",
  acknowledged: "complaint.acknowledged",
  resolved: "complaint.resolved",
};

async function announce(tx: Executor, complaint: ComplaintRecord, baseUrl: string, now: Date) {
  const type = EVENT_OF[complaint.status];
  if (type) await recordEvent(tx, { partnerId: complaint.partnerId, type, payload: complaintPayload(complaint, baseUrl) }, now);
}

/** The partner's policy a complaint names, by its number or its transaction reference; 404 naming the field otherwise. */
async function partnersPolicy(db: Executor, partnerId: string, typed: string): Promise<PolicyRecord> {
  const byReference = await findPolicyByReference(db, partnerId, typed);
  if (byReference) return byReference;
  const byNumber = await findPolicyByNumber(db, typed.toUpperCase());
  if (byNumber?.partnerId === partnerId) return byNumber;
  throw new CommandError(404, `seed.policy: no policy ${typed} among this partner's policies`, "seed.policy");
}

async function partnersClaim(db: Executor, partnerId: string, claimNo: string) {
  const [claim] = await db
    .select({ id: claims.id, policyId: claims.policyId })
    .from(claims)
    .where(and(eq(claims.partnerId, partnerId), eq(claims.claimNo, claimNo)));
  if (!claim) throw new CommandError(404, `seed.claimNo: no claim ${claimNo} among this partner's claims`, "seed.claimNo");
  return claim;
}

/** What a complaint is linked to: the policy and claim it names (a claim brings its policy), checked to be the partner's. */
async function linksOf(db: Executor, partnerId: string, seed: FileSeed) {
  const claim = seed.claimNo ? await partnersClaim(db, partnerId, seed.claimNo) : null;
  let policy = seed.policy ? await partnersPolicy(db, partnerId, seed.policy) : null;
  if (claim && policy && claim.policyId !== policy.id)
    throw new CommandError(
      400,
      `seed.claimNo ${seed.claimNo} is a claim on another policy than ${seed.policy}: name the claim's own policy, or only the claim`,
      "seed.claimNo",
    );
  if (claim && !policy) policy = (await policiesByIds(db, [claim.policyId]))[0] ?? null;
  return { policy, claimId: claim?.id ?? null };
}

const byReference = async (db: Executor, partnerId: string, reference: string) => {
  const [row] = await selectComplaints(db).where(and(eq(complaints.partnerId, partnerId), eq(complaints.reference, reference)));
  return row ?? null;
};

/** The complaint stored under a seed's reference (a repeat, or a request whose answer was lost); null when none. */
export const earlierComplaint = (db: Executor, partnerId: string, reference: string | undefined) =>
  reference ? byReference(db, partnerId, reference) : Promise.resolve(null);

/**
 * `complaint file`, the partner's form, and later the policyholder's own page: a complaint for a
 * customer, who need not hold a policy. A policy or claim it names must be the partner's. With a
 * `reference`, a repeat answers the first complaint (`created: false`), also when repeats arrive at
 * once (the unique index decides, then the first is looked up).
 */
export async function fileComplaint(
  db: Database,
  input: {
    partnerId: string;
    mode: Mode;
    seed: FileSeed;
    documents: readonly NamedDocument[];
    by: string;
    now: Date;
    clock: ComplaintClockSettings;
    baseUrl: string;
    actor?: AuditActor;
  },
): Promise<{ complaint: ComplaintRecord; created: boolean }> {
  const { partnerId, seed, now } = input;
  const earlier = await earlierComplaint(db, partnerId, seed.reference);
  if (earlier) return { complaint: earlier, created: false };
  const { policy, claimId } = await linksOf(db, partnerId, seed);
  const receivedOn = watToday(now);
  // Enough days ahead for any working-day count the settings give.
  const holidays = await holidaysBetween(db, receivedOn, addDays(receivedOn, input.clock.acknowledgeWorkingDays * 3 + 14));
  const step: ComplaintStep = { status: "received", by: input.by, at: now.toISOString() };
  const row: ComplaintRow = {
    id: newId(),
    partnerId,
    complaintNo: newComplaintNumber(now),
    reference: seed.reference ?? null,
    category: seed.category,
    description: seed.description,
    complainantName: seed.complainant.name,
    complainantEmail: seed.complainant.email ?? null,
    complainantPhone: seed.complainant.phone ?? null,
    policyId: policy?.id ?? null,
    claimId,
    productCode: policy?.productCode ?? null,
    mode: policy?.mode ?? input.mode,
    status: "received",
    history: [step],
    receivedOn,
    ...complaintDeadlines(receivedOn, holidays, input.clock),
    acknowledgedAt: null,
    closedAt: null,
    outcome: null,
    redressKobo: null,
    resolution: null,
    letter: null,
    createdAt: now,
    updatedAt: now,
  };
  const { letter: _none, ...kept } = row;
  const record: ComplaintRecord = {
    ...kept,
    policyNo: policy?.policyNo ?? null,
    policyReference: policy?.reference ?? null,
    claimNo: seed.claimNo ?? null,
    hasLetter: false,
  };
  try {
    await db.transaction(async (tx) => {
      await tx.insert(complaints).values(row);
      await attach(tx, row.id, 0, input.documents, input.by, false, now);
      await announce(tx, record, input.baseUrl, now);
      if (input.actor)
        await recordAudit(
          tx,
          input.actor,
          { action: "complaint.file", subject: row.complaintNo, details: { category: row.category, policy: record.policyNo } },
          now,
        );
    });
  } catch (error) {
    if (seed.reference && isUniqueViolation(error, "complaints_partner_reference_idx")) {
      const first = await byReference(db, partnerId, seed.reference);
      if (first) return { complaint: first, created: false };
    }
    throw error;
  }
  return { complaint: record, created: true };
}

async function attach(tx: Executor, complaintId: string, after: number, documents: readonly NamedDocument[], by: string, internal: boolean, now: Date) {
  if (!documents.length) return;
  await tx.insert(complaintDocuments).values(
    documents.map((d, i) => ({
      complaintId,
      position: after + i + 1,
      name: d.name,
      mime: d.mime,
      sizeBytes: d.bytes.length,
      content: d.bytes,
      by,
      internal,
      createdAt: now,
    })),
  );
}

/** The partner sees neither internal notes nor their documents. */
const partnerSees = (scope: ComplaintScope) => (scope.partnerId ? [eq(complaintDocuments.internal, false)] : []);

/** A complaint with its notes (the partner sees only what the partner added) and its documents. Another partner's is not found. */
export async function complaintDetail(db: Executor, scope: ComplaintScope, complaintNo: string): Promise<ComplaintDetail> {
  const [complaint] = await selectComplaints(db).where(scoped(scope, eq(complaints.complaintNo, complaintNo)));
  if (!complaint) throw notFound(scope, complaintNo);
  const notes = await db
    .select({ kind: complaintNotes.kind, body: complaintNotes.body, by: complaintNotes.by, createdAt: complaintNotes.createdAt })
    .from(complaintNotes)
    .where(and(eq(complaintNotes.complaintId, complaint.id), ...(scope.partnerId ? [eq(complaintNotes.kind, "partner")] : [])))
    .orderBy(asc(complaintNotes.createdAt));
  const documents = await db
    .select({
      position: complaintDocuments.position,
      name: complaintDocuments.name,
      mime: complaintDocuments.mime,
      sizeBytes: complaintDocuments.sizeBytes,
      by: complaintDocuments.by,
    })
    .from(complaintDocuments)
    .where(and(eq(complaintDocuments.complaintId, complaint.id), ...partnerSees(scope)))
    .orderBy(asc(complaintDocuments.position));
  return { ...complaint, notes, documents };
}

/** The deadline that is running, as SQL: acknowledgement while received, else resolution. */
const dueFirst = sql`case when ${complaints.status} = 'received' then ${complaints.acknowledgeDueOn} else ${complaints.resolveDueOn} end`;

/** The desk's and the partner's list: open complaints first, by what is due first; then closed ones, latest first. */
export function listComplaints(db: Executor, scope: ComplaintScope, limit = 200): Promise<ComplaintRecord[]> {
  return selectComplaints(db)
    .where(scoped(scope))
    .orderBy(
      sql`${complaints.closedAt} is not null`,
      sql`case when ${complaints.closedAt} is null then ${dueFirst} end`,
      desc(complaints.closedAt),
      desc(complaints.id),
    )
    .limit(limit);
}

/** The bytes of one document of a complaint in this scope, or null. */
export async function complaintDocument(db: Executor, scope: ComplaintScope, complaintNo: string, position: number) {
  const [document] = await db
    .select({ name: complaintDocuments.name, mime: complaintDocuments.mime, bytes: complaintDocuments.content })
    .from(complaintDocuments)
    .innerJoin(complaints, eq(complaints.id, complaintDocuments.complaintId))
    .where(scoped(scope, eq(complaints.complaintNo, complaintNo), eq(complaintDocuments.position, position), ...partnerSees(scope)));
  return document ?? null;
}

/** The resolution letter of a complaint in this scope, or null while there is none. */
export async function complaintLetter(db: Executor, scope: ComplaintScope, complaintNo: string) {
  const [row] = await db
    .select({ letter: complaints.letter })
    .from(complaints)
    .where(scoped(scope, eq(complaints.complaintNo, complaintNo)));
  return row?.letter ? { name: `complaint-resolution-${complaintNo}.pdf`, mime: "application/pdf" as const, bytes: row.letter } : null;
}

/**
 * One change of a complaint, under its row lock: `change` sees the complaint as it stands (so two
 * administrators at once cannot both resolve it), returns the new status and columns; the step, the
 * event and the audit row are written with it.
 */
async function change(
  db: Database,
  input: { scope: ComplaintScope; complaintNo: string; by: string; actor?: AuditActor; now: Date; baseUrl: string; who: ComplaintActor },
  to: ComplaintStatus,
  note: string | undefined,
  columns: (complaint: ComplaintRecord) => Promise<Partial<ComplaintRow>> | Partial<ComplaintRow>,
): Promise<ComplaintDetail> {
  const { scope, complaintNo, now } = input;
  await db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: complaints.id })
      .from(complaints)
      .where(scoped(scope, eq(complaints.complaintNo, complaintNo)))
      .for("update");
    if (!locked) throw notFound(scope, complaintNo);
    const [complaint] = await selectComplaints(tx).where(eq(complaints.id, locked.id));
    checkTransition(complaintNo, complaint!.status, to, input.who);
    const step: ComplaintStep = { status: to, ...(note ? { note } : {}), by: input.by, at: now.toISOString() };
    const set = { ...(await columns(complaint!)), status: to, history: [...complaint!.history, step], updatedAt: now };
    await tx.update(complaints).set(set).where(eq(complaints.id, locked.id));
    const { letter: _l, ...shown } = set;
    await announce(tx, { ...complaint!, ...shown, hasLetter: complaint!.hasLetter || !!set.letter }, input.baseUrl, now);
    if (input.actor) await recordAudit(tx, input.actor, { action: `complaint.${to}`, subject: complaintNo, details: note ? { note } : {} }, now);
  });
  return complaintDetail(db, scope, complaintNo);
}

type ChangeInput = Parameters<typeof change>[1];

/** The operator acknowledges a complaint, or (acknowledged) takes it in hand. */
export const moveComplaint = (db: Database, input: Omit<ChangeInput, "scope" | "who">, to: "acknowledged" | "in_progress", note?: string) =>
  change(db, { ...input, scope: {}, who: "operator" }, to, note, (c) => ({ acknowledgedAt: c.acknowledgedAt ?? input.now }));

/** The partner withdraws a complaint the customer no longer pursues. */
export const withdrawComplaint = (db: Database, input: Omit<ChangeInput, "scope" | "who"> & { partnerId: string }, note?: string) =>
  change(db, { ...input, scope: { partnerId: input.partnerId }, who: "partner" }, "withdrawn", note, () => ({ closedAt: input.now }));

export interface Resolution {
  outcome: ComplaintOutcome;
  resolution: string;
  redressKobo: number;
}

/** The operator resolves a complaint: its outcome, redress and words, and the letter drawn from them (`letter`), stored with it. */
export const resolveComplaint = (
  db: Database,
  input: Omit<ChangeInput, "scope" | "who">,
  resolution: Resolution,
  letter: (resolved: ComplaintRecord) => Promise<Uint8Array>,
) =>
  change(db, { ...input, scope: {}, who: "operator" }, "resolved", undefined, async (c) => {
    const resolved: ComplaintRecord = {
      ...c,
      ...resolution,
      status: "resolved",
      closedAt: input.now,
      acknowledgedAt: c.acknowledgedAt ?? input.now,
    };
    return { ...resolution, closedAt: input.now, acknowledgedAt: resolved.acknowledgedAt, letter: await letter(resolved) };
  });

/**
 * A note on an open or closed complaint: the operator's internal one, or what the partner adds (with
 * documents), which the operator reads on the desk. Another partner's complaint is not found.
 */
export async function addNote(
  db: Database,
  input: {
    scope: ComplaintScope;
    complaintNo: string;
    kind: "internal" | "partner";
    body: string;
    documents: readonly NamedDocument[];
    by: string;
    actor?: AuditActor;
    now: Date;
  },
): Promise<ComplaintDetail> {
  const { scope, complaintNo, now } = input;
  await db.transaction(async (tx) => {
    const [complaint] = await tx
      .select({ id: complaints.id, status: complaints.status })
      .from(complaints)
      .where(scoped(scope, eq(complaints.complaintNo, complaintNo)))
      .for("update");
    if (!complaint) throw notFound(scope, complaintNo);
    if (input.kind === "partner" && (complaint.status === "resolved" || complaint.status === "withdrawn"))
      throw new CommandError(409, `complaint ${complaintNo} is ${complaint.status}: information can be added only while it is open`);
    await tx.insert(complaintNotes).values({ id: newId(), complaintId: complaint.id, kind: input.kind, body: input.body, by: input.by, createdAt: now });
    const [{ count }] = (await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(complaintDocuments)
      .where(eq(complaintDocuments.complaintId, complaint.id))) as [{ count: number }];
    await attach(tx, complaint.id, count, input.documents, input.by, input.kind === "internal", now);
    await tx.update(complaints).set({ updatedAt: now }).where(eq(complaints.id, complaint.id));
    if (input.actor)
      await recordAudit(
        tx,
        input.actor,
        { action: `complaint.note`, subject: complaintNo, details: { kind: input.kind, documents: input.documents.length } },
        now,
      );
  });
  return complaintDetail(db, scope, complaintNo);
}
