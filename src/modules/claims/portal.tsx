import { Elysia } from "elysia";
import { CLAIM_DOCUMENT_INPUTS, type ClaimActionState, ClaimDetail, ClaimForm, ClaimList, ClaimRows } from "../../../views/claims/claims";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { download, notFound, redirectTo, refusedAsNull } from "../../portal/kit";
import { listAnswer } from "../../portal/list";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { findPolicyByReference } from "../policies";
import { clockSettings } from "./clock";
import {
  claimNoOf,
  claimRequestFrom,
  documentPositionOf,
  documentsFrom,
  parseClaimSeed,
  respondSeed,
  respondSeedFrom,
  submitSeed,
  submitSeedFrom,
  withdrawSeedFrom,
} from "./model";
import {
  canWithdraw,
  claimCsvColumns,
  claimCsvRow,
  claimFiltersOf,
  claimList,
  claimPolicySummary,
  claimRow,
  claimView,
  documentProblem,
  drawnClaimReference,
  partnerHref,
} from "./presenter";
import { type ClaimDetail as ClaimDetailRecord, claimDetail, claimDocument, listClaims, respondToClaim, submitClaim, withdrawClaim } from "./service";

const NO_CLAIM = "No claim with this number on your account.";

/** The partner's claim pages: the list, a new claim (with documents), a claim and its withdrawal, its documents. */
export const claimPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const maxDocumentBytes = deps.config.MAX_DOCUMENT_BYTES;
  const clock = clockSettings(deps.config);
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "claims", viewer, csrf });
  const claimOf = (viewer: PortalViewer, raw: string) => {
    const claimNo = claimNoOf(raw);
    return claimNo ? claimDetail(db, { partnerId: viewer.partnerId }, claimNo).catch(refusedAsNull) : null;
  };

  const claimForm = async (
    viewer: PortalViewer,
    csrf: string,
    values: Record<string, string | undefined>,
    refused?: { problem: FormProblem; hadFiles: boolean },
  ) => (
    <ClaimForm
      values={values}
      problem={refused?.problem}
      csrf={csrf}
      policy={claimPolicySummary(values.policy?.trim() ? await findPolicyByReference(db, viewer.partnerId, values.policy.trim()) : null)}
      maxDocumentBytes={maxDocumentBytes}
      hadFiles={refused?.hadFiles}
    />
  );

  /** The claim page, with the withdraw form while the claim can be withdrawn. */
  const detail = async (claim: ClaimDetailRecord, csrf: string, state: ClaimActionState = { values: {} }) => (
    <ClaimDetail
      claim={await claimView(db, claim, null, clock)}
      csrf={csrf}
      backHref="/portal/claims"
      state={state}
      withdrawAction={canWithdraw(claim) ? `${partnerHref(claim.claimNo)}/withdraw` : undefined}
      respondAction={claim.status === "info_requested" ? `${partnerHref(claim.claimNo)}/respond` : undefined}
    />
  );

  return new Elysia({ name: "portal-claims" })
    .use(portalSession(deps))
    .get(
      "/portal/claims",
      (ctx) =>
        listAnswer(
          ctx,
          claimList(db, { partnerId: ctx.viewer.partnerId }, "/portal/claims", (items) => items.map((c) => claimRow(c, partnerHref(c.claimNo), clock))),
          {
            shell: shell(ctx.viewer, ctx.csrf, "Claims"),
            rows: (list) => <ClaimRows rows={list.rows} more={list.more} />,
            page: (list) => <ClaimList title="Claims" action="/portal/claims" list={list} newHref="/portal/claims/new" exportHref={list.exportHref} />,
          },
        ),
      { portal: "partner" },
    )
    .get(
      "/portal/claims.csv",
      ({ viewer, query, set }) =>
        csvOrRefusal(set, () => {
          const filters = claimFiltersOf(query);
          return csvDownload({
            filename: `claims-${watToday(new Date())}`,
            columns: claimCsvColumns("partner"),
            page: (limit, cursor) => listClaims(db, { partnerId: viewer.partnerId }, filters, { limit, cursor }),
            rows: async (items) => items.map((c) => claimCsvRow(c)),
          });
        }),
      { portal: "partner" },
    )
    .get(
      "/portal/claims/new",
      async ({ viewer, csrf, request, query }) =>
        page(
          request,
          shell(viewer, csrf, "Make a claim"),
          await claimForm(viewer, csrf, { policy: query.policy?.trim() || undefined, reference: drawnClaimReference() }),
        ),
      { portal: "partner" },
    )
    .post(
      "/portal/claims",
      async ({ viewer, csrf, request, body, set }) => {
        const values = formValues(body);
        const { seed, inputs } = await submitSeedFrom(values, body, CLAIM_DOCUMENT_INPUTS);
        try {
          const claimRequest = claimRequestFrom(parseClaimSeed(submitSeed, seed), maxDocumentBytes);
          const { claim } = await submitClaim(db, {
            partnerId: viewer.partnerId,
            mode: viewer.mode,
            request: claimRequest,
            now: new Date(),
            clock,
            actor: viewer,
          });
          return redirectTo(request, set, partnerHref(claim.claimNo));
        } catch (error) {
          const problem = documentProblem(problemOf(error), inputs);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, shell(viewer, csrf, "Make a claim"), await claimForm(viewer, csrf, values, { problem, hadFiles: inputs.length > 0 }));
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/claims/:claimNo",
      async ({ viewer, csrf, request, params, set }) => {
        const claim = await claimOf(viewer, params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_CLAIM));
        return page(request, shell(viewer, csrf, `Claim ${claim.claimNo}`), await detail(claim, csrf));
      },
      { portal: "partner" },
    )
    .post(
      "/portal/claims/:claimNo/respond",
      async ({ viewer, csrf, request, params, body, set }) => {
        const claim = await claimOf(viewer, params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_CLAIM));
        const values = formValues(body);
        const title = `Claim ${claim.claimNo}`;
        const { raw, inputs } = await respondSeedFrom(claim.claimNo, values, body, 3);
        try {
          const seed = parseClaimSeed(respondSeed, raw);
          const answered = await respondToClaim(db, {
            partnerId: viewer.partnerId,
            mode: viewer.mode,
            claimNo: seed.claimNo,
            note: seed.note,
            documents: documentsFrom(seed.documents, maxDocumentBytes),
            now: new Date(),
            actor: viewer,
          });
          const done = `The information is sent: claim ${answered.claimNo} is back in review.`;
          return page(request, shell(viewer, csrf, title), await detail(answered, csrf, { values: {}, done }));
        } catch (error) {
          const refused = problemOf(error);
          const problem = documentProblem(refused.input === "note" ? { ...refused, input: "answer" } : refused, inputs);
          set.status = error instanceof CommandError ? error.status : 400;
          const current = await claimDetail(db, { partnerId: viewer.partnerId }, claim.claimNo);
          return page(request, shell(viewer, csrf, title), await detail(current, csrf, { values, problem }));
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/claims/:claimNo/withdraw",
      async ({ viewer, csrf, request, params, body, set }) => {
        const claim = await claimOf(viewer, params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_CLAIM));
        const values = formValues(body);
        const title = `Claim ${claim.claimNo}`;
        try {
          const { claimNo, note } = withdrawSeedFrom(claim.claimNo, values);
          const withdrawn = await withdrawClaim(db, { partnerId: viewer.partnerId, mode: viewer.mode, claimNo, note, now: new Date(), actor: viewer });
          return page(request, shell(viewer, csrf, title), await detail(withdrawn, csrf, { values: {}, done: `Claim ${withdrawn.claimNo} is withdrawn.` }));
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          const current = await claimDetail(db, { partnerId: viewer.partnerId }, claim.claimNo);
          return page(request, shell(viewer, csrf, title), await detail(current, csrf, { values, problem }));
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/claims/:claimNo/documents/:position",
      async ({ viewer, params, set }) => {
        const claimNo = claimNoOf(params.claimNo);
        const position = documentPositionOf(params.position);
        const document = claimNo && position ? await claimDocument(db, { partnerId: viewer.partnerId }, claimNo, position).catch(refusedAsNull) : null;
        return document ? download(document) : notFound(set, "No such document among your claims.");
      },
      { portal: "partner" },
    );
};
