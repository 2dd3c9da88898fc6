import { Elysia } from "elysia";
import { type ClaimActionState, ClaimDetail, ClaimList, ClaimRows } from "../../../views/claims/claims";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { download, notFound, refusedAsNull } from "../../portal/kit";
import { listAnswer } from "../../portal/list";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { partnerNames, rowsWithPartner } from "../partners";
import { approvedKoboOf, claimNoOf, documentPositionOf, reviewSeedFrom } from "./model";
import {
  adminHref,
  approvalTakes,
  claimCsvColumns,
  claimCsvRow,
  claimFiltersOf,
  claimList,
  claimRow,
  claimView,
  operatorMoves,
  reviewedText,
} from "./presenter";
import { type ClaimDetail as ClaimDetailRecord, claimDetail, claimDocument, listClaims, reviewClaim } from "./service";

/** The operator's claim pages: every partner's claims, a claim with the moves the state machine allows, its documents. */
export const claimAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "claims", viewer, csrf });
  const claimOf = (raw: string) => {
    const claimNo = claimNoOf(raw);
    return claimNo ? claimDetail(db, {}, claimNo).catch(refusedAsNull) : null;
  };
  const partnerName = async (partnerId: string) => (await partnerNames(db)).get(partnerId) ?? "";

  const detail = async (claim: ClaimDetailRecord, csrf: string, state: ClaimActionState = { values: {} }) => (
    <ClaimDetail
      claim={await claimView(db, claim, { partnerName: await partnerName(claim.partnerId) })}
      csrf={csrf}
      backHref="/admin/claims"
      state={state}
      review={{ action: `${adminHref(claim.claimNo)}/review`, moves: operatorMoves(claim), approvalTakes: await approvalTakes(db, claim) }}
    />
  );

  return new Elysia({ name: "admin-claims" })
    .use(portalSession(deps))
    .get(
      "/admin/claims",
      (ctx) =>
        listAnswer(
          ctx,
          claimList(db, {}, "/admin/claims", (items) => rowsWithPartner(db, items, (c, partnerName) => claimRow(c, adminHref(c.claimNo), partnerName))),
          {
            shell: shell(ctx.viewer, ctx.csrf, "Claims"),
            rows: (list) => <ClaimRows rows={list.rows} more={list.more} withPartner />,
            page: (list) => <ClaimList title="All partners' claims" action="/admin/claims" list={list} withPartner exportHref={list.exportHref} />,
          },
        ),
      { portal: "admin" },
    )
    .get(
      "/admin/claims.csv",
      ({ query, set }) =>
        csvOrRefusal(set, () => {
          const filters = claimFiltersOf(query);
          return csvDownload({
            filename: `claims-${watToday(new Date())}`,
            columns: claimCsvColumns("operator"),
            page: (limit, cursor) => listClaims(db, {}, filters, { limit, cursor }),
            rows: (items) => rowsWithPartner(db, items, claimCsvRow),
          });
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/claims/:claimNo",
      async ({ viewer, csrf, request, params, set }) => {
        const claim = await claimOf(params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such claim."));
        return page(request, shell(viewer, csrf, `Claim ${claim.claimNo}`), await detail(claim, csrf));
      },
      { portal: "admin" },
    )
    .post(
      "/admin/claims/:claimNo/review",
      async ({ viewer, csrf, request, params, body, set }) => {
        const claim = await claimOf(params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such claim."));
        const title = `Claim ${claim.claimNo}`;
        const values = formValues(body);
        try {
          const seed = reviewSeedFrom(claim.claimNo, values);
          const reviewed = await reviewClaim(db, {
            claimNo: seed.claimNo,
            status: seed.status,
            note: seed.note,
            approvedKobo: approvedKoboOf(seed),
            by: `admin:${viewer.email}`,
            actor: viewer,
            now: new Date(),
          });
          return page(request, shell(viewer, csrf, title), await detail(reviewed, csrf, { values: {}, done: reviewedText(reviewed) }));
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, shell(viewer, csrf, title), await detail(await claimDetail(db, {}, claim.claimNo), csrf, { values, problem }));
        }
      },
      { portal: "admin" },
    )
    .get(
      "/admin/claims/:claimNo/documents/:position",
      async ({ params, set }) => {
        const claimNo = claimNoOf(params.claimNo);
        const position = documentPositionOf(params.position);
        const document = claimNo && position ? await claimDocument(db, {}, claimNo, position).catch(refusedAsNull) : null;
        return document ? download(document) : notFound(set, "No such document.");
      },
      { portal: "admin" },
    );
};
