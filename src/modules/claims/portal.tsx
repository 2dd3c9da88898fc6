import { Elysia } from "elysia";
import {
  CLAIM_DOCUMENT_INPUTS,
  CLAIM_STATUS_TEXT,
  type ClaimActionState,
  ClaimDetail,
  type ClaimFilterValues,
  ClaimForm,
  ClaimList,
  type ClaimMove,
  type ClaimPolicySummary,
  type ClaimRow,
  ClaimRows,
  type ClaimView,
} from "../../../views/claims/claims";
import { naira } from "../../../views/format";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import { toKobo } from "../../core/money";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { wireValue } from "../../products/forms";
import { watToday } from "../../products/policy-helpers";
import type { Viewer } from "../accounts/service";
import { recordAudit } from "../audit/service";
import { partnerNames } from "../partners/service";
import { productName } from "../policies/presenter";
import { findPolicyByReference } from "../policies/service";
import { CLAIM_TRANSITIONS, type ClaimActor } from "./rules";
import type { ClaimStatus } from "./schema";
import { claimRequestFrom, listSeed, parseClaimSeed, reviewSeed, statusSeed, submitSeed, withdrawSeed } from "./seeds";
import {
  type ClaimDetail as ClaimDetailRecord,
  type ClaimRecord,
  type ClaimScope,
  claimDetail,
  claimDocument,
  listClaims,
  reviewClaim,
  submitClaim,
  withdrawClaim,
} from "./service";

const PAGE_SIZE = 25;

/** Document types as people (and the JSON surface) name them. */
const DOCUMENT_TYPES: Record<string, string> = { "application/pdf": "pdf", "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp" };

/** The operator's buttons, in the order the state machine offers them. */
const OPERATOR_MOVES: Record<string, ClaimMove> = {
  in_review: { status: "in_review", label: "Start the review" },
  approved: { status: "approved", label: "Approve" },
  rejected: { status: "rejected", label: "Reject", danger: true },
  paid: { status: "paid", label: "Mark as paid" },
};

/** What `actor` may turn a claim of this status into (CLAIM_TRANSITIONS, the one state machine). */
const movesOf = (status: ClaimStatus, actor: ClaimActor) =>
  (Object.entries(CLAIM_TRANSITIONS[status]) as [ClaimStatus, ClaimActor][]).filter(([, by]) => by === actor).map(([to]) => to);

/** A claim number from a URL, as the JSON surface reads it (any case); null when it cannot be one. */
function claimNoOf(raw: string): string | null {
  try {
    return parseClaimSeed(statusSeed, { claimNo: decodeURIComponent(raw) }).claimNo;
  } catch {
    return null;
  }
}

const text = (value: string | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** The list filters from a query string, validated by `claim list`'s own seed so a refusal reads the same. */
function filtersOf(query: Record<string, string | undefined>) {
  const values: ClaimFilterValues = { status: text(query.status), policy: text(query.policy), from: text(query.from), to: text(query.to) };
  const seed = Object.fromEntries(Object.entries({ ...values, cursor: text(query.cursor) }).filter(([, v]) => v !== undefined));
  return { values, seed };
}

const moreHref = (base: string, values: ClaimFilterValues, cursor: string | null) =>
  cursor
    ? `${base}?${new URLSearchParams({ ...(Object.fromEntries(Object.entries(values).filter(([, v]) => v)) as Record<string, string>), rows: "1", cursor })}`
    : null;

/**
 * The claim form's strings and files as the `claim submit` seed: blank inputs left out (so the
 * rules say "is required"), the amount read like every portal number, each chosen file as base64
 * with its own name. `inputs[i]` is the input of seed.documents[i], to put a refusal beside it.
 */
async function submitSeedFrom(body: unknown) {
  const values = formValues(body);
  const form = (body ?? {}) as Record<string, unknown>;
  const documents: { name: string; content: string }[] = [];
  const inputs: string[] = [];
  for (let i = 1; i <= CLAIM_DOCUMENT_INPUTS; i++) {
    const file = form[`document${i}`];
    if (!(file instanceof Blob) || file.size === 0) continue;
    const name = file instanceof File && file.name ? file.name : `document-${i}`;
    documents.push({ name, content: Buffer.from(await file.arrayBuffer()).toString("base64") });
    inputs.push(`document${i}`);
  }
  const seed = {
    policy: text(values.policy),
    incidentDate: text(values.incidentDate),
    description: text(values.description),
    amount: wireValue({ kind: "number", path: "amount", label: "Amount" }, values.amount),
    reference: text(values.reference),
    ...(documents.length ? { documents } : {}),
  };
  return { values, seed: Object.fromEntries(Object.entries(seed).filter(([, v]) => v !== undefined)), inputs };
}

/** A refusal of a document (seed.documents[1].content) shown beside the file input it came from. */
function documentProblem(problem: FormProblem, inputs: string[]): FormProblem {
  const match = /^documents\.(\d+)\.(content|name)$/.exec(problem.input ?? "");
  return match && inputs[Number(match[1])] ? { ...problem, input: inputs[Number(match[1])] } : problem;
}

/** A stored document as a download: the sniffed type, the name it was sent with. */
function download(document: { name: string; mime: string; bytes: Uint8Array }) {
  const ascii = document.name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(Buffer.from(document.bytes), {
    headers: {
      "content-type": document.mime,
      "content-disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(document.name)}`,
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    },
  });
}

/** A domain refusal (not found, malformed) as "nothing here"; anything else is a fault and goes on up. */
const refusedAsNull = (error: unknown): null => {
  if (error instanceof CommandError) return null;
  throw error;
};

const who = (by: string) => (by === "partner" ? "the partner" : by.replace(/^admin:/, ""));

/** Claims (partner pages) and claims adjudication (admin pages). */
export const claimPortal = (deps: AppDeps) => {
  const db = deps.database.db;

  const partnerHref = (claimNo: string) => `/portal/claims/${claimNo}`;
  const adminHref = (claimNo: string) => `/admin/claims/${claimNo}`;

  function claimRow(claim: ClaimRecord, href: string, partnerName?: string): ClaimRow {
    return {
      claimNo: claim.claimNo,
      href,
      policy: claim.policy,
      partnerName,
      productName: productName(claim.productCode),
      status: claim.status,
      mode: claim.mode,
      incidentDate: claim.incidentDate,
      claimedKobo: claim.claimedKobo,
      payableKobo: claim.payableKobo,
      createdAt: claim.createdAt,
    };
  }

  /** Everything a claim page shows; the operator also sees who made each change and whose claim it is. */
  function claimView(claim: ClaimDetailRecord, admin: { partnerName: string } | null): ClaimView {
    const base = admin ? adminHref(claim.claimNo) : partnerHref(claim.claimNo);
    return {
      claimNo: claim.claimNo,
      reference: claim.reference,
      policy: claim.policy,
      policyHref: admin ? `/admin/policies/${claim.policyId}` : `/portal/policies/${encodeURIComponent(claim.policy)}`,
      productName: productName(claim.productCode),
      productCode: claim.productCode,
      partnerName: admin?.partnerName,
      mode: claim.mode,
      status: claim.status,
      statusNote: claim.statusNote,
      incidentDate: claim.incidentDate,
      description: claim.description,
      claimedKobo: claim.claimedKobo,
      approvedKobo: claim.approvedKobo,
      excessKobo: claim.excessKobo,
      payableKobo: claim.payableKobo,
      createdAt: claim.createdAt,
      updatedAt: claim.updatedAt,
      documents: claim.documents.map((d) => ({
        position: d.position,
        name: d.name,
        type: DOCUMENT_TYPES[d.mime] ?? d.mime,
        sizeBytes: d.sizeBytes,
        href: `${base}/documents/${d.position}`,
      })),
      history: claim.history.map((step) => ({ status: step.status, note: step.note, at: new Date(step.at), by: admin ? who(step.by) : undefined })),
    };
  }

  /** The claims list of `scope` with the query's filters; a refused filter comes back as a problem with no rows. */
  async function claimList(scope: ClaimScope, query: Record<string, string | undefined>, base: string, row: (c: ClaimRecord) => ClaimRow) {
    const { values, seed } = filtersOf(query);
    try {
      const { cursor, limit: _limit, ...filters } = parseClaimSeed(listSeed, seed);
      const list = await listClaims(db, scope, filters, { limit: PAGE_SIZE, cursor });
      return { values, rows: list.items.map(row), more: moreHref(base, values, list.nextCursor) };
    } catch (error) {
      return { values, rows: [] as ClaimRow[], more: null, problem: problemOf(error) };
    }
  }

  async function policySummary(viewer: Viewer, reference: string | undefined): Promise<ClaimPolicySummary | undefined> {
    const policy = reference ? await findPolicyByReference(db, viewer.partnerId, reference) : null;
    if (!policy) return undefined;
    return {
      reference: policy.reference,
      productName: productName(policy.productCode),
      status: policy.status,
      coverFirstDay: watToday(policy.coverStart),
      coverLastDay: watToday(new Date(policy.coverEnd.getTime() - 1)),
    };
  }

  const notFound = (set: { status?: unknown }) => {
    set.status = 404;
    return <p class="problem">No claim with this number on your account.</p>;
  };

  /** The partner's claim page, with the withdraw form while the claim can be withdrawn. */
  const partnerDetail = (claim: ClaimDetailRecord, csrf: string, state: ClaimActionState = { values: {} }) => (
    <ClaimDetail
      claim={claimView(claim, null)}
      csrf={csrf}
      backHref="/portal/claims"
      state={state}
      withdrawAction={movesOf(claim.status, "partner").includes("withdrawn") ? `${partnerHref(claim.claimNo)}/withdraw` : undefined}
    />
  );

  /** The operator's claim page, with the moves the state machine still allows. */
  const adminDetail = (claim: ClaimDetailRecord, partnerName: string, csrf: string, state: ClaimActionState = { values: {} }) => (
    <ClaimDetail
      claim={claimView(claim, { partnerName })}
      csrf={csrf}
      backHref="/admin/claims"
      state={state}
      review={{ action: `${adminHref(claim.claimNo)}/review`, moves: movesOf(claim.status, "operator").map((s) => OPERATOR_MOVES[s]!) }}
    />
  );

  const settled = (c: ClaimDetailRecord) =>
    c.approvedKobo === null ? "" : `: approved ${naira(c.approvedKobo)}, excess ${naira(c.excessKobo ?? 0)}, payable ${naira(c.payableKobo ?? 0)}`;

  return (
    new Elysia({ name: "portal-claims" })
      .use(portalSession(deps))
      // ─── Partner pages ───────────────────────────────────────────────────────────────────────
      .get(
        "/portal/claims",
        async ({ viewer, csrf, request, query, set }) => {
          const list = await claimList({ partnerId: viewer.partnerId }, query, "/portal/claims", (c) => claimRow(c, partnerHref(c.claimNo)));
          if (list.problem) set.status = 400;
          if (query.rows) return <ClaimRows rows={list.rows} more={list.more} />;
          return page(
            request,
            { title: "Claims", active: "claims", viewer, csrf },
            <ClaimList
              title="Claims"
              action="/portal/claims"
              rows={list.rows}
              more={list.more}
              filters={list.values}
              problem={list.problem}
              newHref="/portal/claims/new"
            />,
          );
        },
        { portal: "partner" },
      )
      .get(
        "/portal/claims/new",
        async ({ viewer, csrf, request, query }) => {
          const values = { policy: text(query.policy) };
          return page(
            request,
            { title: "Make a claim", active: "claims", viewer, csrf },
            <ClaimForm values={values} csrf={csrf} policy={await policySummary(viewer, values.policy)} maxDocumentBytes={deps.config.MAX_DOCUMENT_BYTES} />,
          );
        },
        { portal: "partner" },
      )
      .post(
        "/portal/claims",
        async ({ viewer, csrf, request, body, set }) => {
          const { values, seed, inputs } = await submitSeedFrom(body);
          try {
            const claimRequest = claimRequestFrom(parseClaimSeed(submitSeed, seed), deps.config.MAX_DOCUMENT_BYTES);
            const now = new Date();
            const { claim, created } = await submitClaim(db, { partnerId: viewer.partnerId, mode: viewer.mode, request: claimRequest, now });
            if (created)
              await recordAudit(
                db,
                viewer,
                {
                  action: "claim.submit",
                  subject: claim.claimNo,
                  details: { policy: claim.policy, claimedKobo: claim.claimedKobo, documents: claim.documents.length },
                },
                now,
              );
            const location = partnerHref(claim.claimNo);
            if (request.headers.get("hx-request")) set.headers["hx-redirect"] = location;
            else {
              set.headers.location = location;
              set.status = 303;
            }
            return "";
          } catch (error) {
            const problem = documentProblem(problemOf(error), inputs);
            set.status = error instanceof CommandError ? error.status : 400;
            return page(
              request,
              { title: "Make a claim", active: "claims", viewer, csrf },
              <ClaimForm
                values={values}
                problem={problem}
                csrf={csrf}
                policy={await policySummary(viewer, text(values.policy))}
                maxDocumentBytes={deps.config.MAX_DOCUMENT_BYTES}
                hadFiles={inputs.length > 0}
              />,
            );
          }
        },
        { portal: "partner" },
      )
      .get(
        "/portal/claims/:claimNo",
        async ({ viewer, csrf, request, params, set }) => {
          const claimNo = claimNoOf(params.claimNo);
          const claim = claimNo ? await claimDetail(db, { partnerId: viewer.partnerId }, claimNo).catch(refusedAsNull) : null;
          if (!claim) return page(request, { title: "Not found", active: "claims", viewer, csrf }, notFound(set));
          return page(request, { title: `Claim ${claim.claimNo}`, active: "claims", viewer, csrf }, partnerDetail(claim, csrf));
        },
        { portal: "partner" },
      )
      .post(
        "/portal/claims/:claimNo/withdraw",
        async ({ viewer, csrf, request, params, body, set }) => {
          const claimNo = claimNoOf(params.claimNo);
          const scope = { partnerId: viewer.partnerId };
          const claim = claimNo ? await claimDetail(db, scope, claimNo).catch(refusedAsNull) : null;
          if (!claim) return page(request, { title: "Not found", active: "claims", viewer, csrf }, notFound(set));
          const values = formValues(body);
          const shell = { title: `Claim ${claim.claimNo}`, active: "claims", viewer, csrf };
          try {
            const seed = parseClaimSeed(withdrawSeed, { claimNo: claim.claimNo, ...(text(values.note) ? { note: text(values.note) } : {}) });
            const now = new Date();
            const withdrawn = await withdrawClaim(db, { partnerId: viewer.partnerId, mode: viewer.mode, claimNo: seed.claimNo, note: seed.note, now });
            await recordAudit(db, viewer, { action: "claim.withdraw", subject: withdrawn.claimNo, details: { note: seed.note } }, now);
            return page(request, shell, partnerDetail(withdrawn, csrf, { values: {}, done: `Claim ${withdrawn.claimNo} is withdrawn.` }));
          } catch (error) {
            const problem = problemOf(error);
            set.status = error instanceof CommandError ? error.status : 400;
            return page(request, shell, partnerDetail(await claimDetail(db, scope, claim.claimNo), csrf, { values, problem }));
          }
        },
        { portal: "partner" },
      )
      .get(
        "/portal/claims/:claimNo/documents/:position",
        async ({ viewer, params, set }) => {
          const claimNo = claimNoOf(params.claimNo);
          const position = /^\d{1,2}$/.test(params.position) ? Number(params.position) : 0;
          const document = claimNo && position ? await claimDocument(db, { partnerId: viewer.partnerId }, claimNo, position).catch(refusedAsNull) : null;
          if (!document) {
            set.status = 404;
            return <p class="problem">No such document among your claims.</p>;
          }
          return download(document);
        },
        { portal: "partner" },
      )
      // ─── The operator's pages ────────────────────────────────────────────────────────────────
      .get(
        "/admin/claims",
        async ({ viewer, csrf, request, query, set }) => {
          const names = await partnerNames(db);
          const list = await claimList({}, query, "/admin/claims", (c) => claimRow(c, adminHref(c.claimNo), names.get(c.partnerId) ?? ""));
          if (list.problem) set.status = 400;
          if (query.rows) return <ClaimRows rows={list.rows} more={list.more} withPartner />;
          return page(
            request,
            { title: "Claims", active: "claims", viewer, csrf },
            <ClaimList
              title="All partners' claims"
              action="/admin/claims"
              rows={list.rows}
              more={list.more}
              filters={list.values}
              problem={list.problem}
              withPartner
            />,
          );
        },
        { portal: "admin" },
      )
      .get(
        "/admin/claims/:claimNo",
        async ({ viewer, csrf, request, params, set }) => {
          const claimNo = claimNoOf(params.claimNo);
          const claim = claimNo ? await claimDetail(db, {}, claimNo).catch(refusedAsNull) : null;
          if (!claim) {
            set.status = 404;
            return page(request, { title: "Not found", active: "claims", viewer, csrf }, <p class="problem">No such claim.</p>);
          }
          const names = await partnerNames(db);
          return page(request, { title: `Claim ${claim.claimNo}`, active: "claims", viewer, csrf }, adminDetail(claim, names.get(claim.partnerId) ?? "", csrf));
        },
        { portal: "admin" },
      )
      .post(
        "/admin/claims/:claimNo/review",
        async ({ viewer, csrf, request, params, body, set }) => {
          const claimNo = claimNoOf(params.claimNo);
          const claim = claimNo ? await claimDetail(db, {}, claimNo).catch(refusedAsNull) : null;
          if (!claim) {
            set.status = 404;
            return page(request, { title: "Not found", active: "claims", viewer, csrf }, <p class="problem">No such claim.</p>);
          }
          const partnerName = (await partnerNames(db)).get(claim.partnerId) ?? "";
          const shell = { title: `Claim ${claim.claimNo}`, active: "claims", viewer, csrf };
          const values = formValues(body);
          try {
            const seed = parseClaimSeed(reviewSeed, {
              claimNo: claim.claimNo,
              status: text(values.status),
              note: text(values.note),
              approvedAmount: wireValue({ kind: "number", path: "approvedAmount", label: "Approved amount" }, values.approvedAmount),
            });
            const now = new Date();
            const reviewed = await reviewClaim(db, {
              claimNo: seed.claimNo,
              status: seed.status,
              note: seed.note,
              approvedKobo: seed.approvedAmount === undefined ? undefined : toKobo(seed.approvedAmount),
              by: `admin:${viewer.email}`,
              now,
            });
            await recordAudit(
              db,
              viewer,
              {
                action: "claim.review",
                subject: reviewed.claimNo,
                partnerId: reviewed.partnerId,
                details: {
                  status: reviewed.status,
                  ...(seed.note ? { note: seed.note } : {}),
                  ...(reviewed.approvedKobo === null
                    ? {}
                    : { approvedKobo: reviewed.approvedKobo, excessKobo: reviewed.excessKobo, payableKobo: reviewed.payableKobo }),
                },
              },
              now,
            );
            const done = `Claim ${reviewed.claimNo} is now ${CLAIM_STATUS_TEXT[reviewed.status]!.toLowerCase()}${settled(reviewed)}.`;
            return page(request, shell, adminDetail(reviewed, partnerName, csrf, { values: {}, done }));
          } catch (error) {
            const problem = problemOf(error);
            set.status = error instanceof CommandError ? error.status : 400;
            return page(request, shell, adminDetail(await claimDetail(db, {}, claim.claimNo), partnerName, csrf, { values, problem }));
          }
        },
        { portal: "admin" },
      )
      .get(
        "/admin/claims/:claimNo/documents/:position",
        async ({ params, set }) => {
          const claimNo = claimNoOf(params.claimNo);
          const position = /^\d{1,2}$/.test(params.position) ? Number(params.position) : 0;
          const document = claimNo && position ? await claimDocument(db, {}, claimNo, position).catch(refusedAsNull) : null;
          if (!document) {
            set.status = 404;
            return <p class="problem">No such document.</p>;
          }
          return download(document);
        },
        { portal: "admin" },
      )
  );
};
