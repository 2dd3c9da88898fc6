import { Elysia } from "elysia";
import { type ClaimActionState, ClaimDetail, ClaimList, ClaimRows } from "../../../views/claims/claims";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { confirmation } from "../../portal/confirm";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { download, notFound, refusedAsNull } from "../../portal/kit";
import { listAnswer, partnerScopeOf, withPartnerFilter } from "../../portal/list";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { addDays } from "../calendar";
import { partnerChoices, partnerNames, rowsWithPartner } from "../partners";
import { assessClaim } from "./assessment";
import { clockSettings } from "./clock";
import { approvedKoboOf, assessmentChangeOf, assessSeedFrom, claimNoOf, documentPositionOf, formList, reviewSeedFrom } from "./model";
import {
  adminHref,
  approvalTakes,
  assessmentView,
  claimCsvColumns,
  claimCsvRow,
  claimFiltersOf,
  claimList,
  claimRow,
  claimView,
  decisionStep,
  operatorMoves,
  reviewedText,
  settles,
} from "./presenter";
import { checkTransition } from "./rules";
import { type ClaimDetail as ClaimDetailRecord, claimDetail, claimDocument, claimsDueFirst, listClaims, reviewClaim } from "./service";

/** The operator's claim pages: every partner's claims, a claim with the moves the state machine allows, its documents. */
export const claimAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const clock = clockSettings(deps.config);
  /** The desk's "due first": open claims overdue or due within the settlement's due-soon window. */
  const dueFirst = async () => {
    const { items, count } = await claimsDueFirst(db, addDays(watToday(new Date()), clock.dueSoonDays), 50);
    const rows = await rowsWithPartner(db, items, (c, partnerName) => claimRow(c, adminHref(c.claimNo), clock, partnerName));
    return { rows, count, dueSoonDays: clock.dueSoonDays };
  };
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "claims", viewer, csrf });
  const claimOf = (raw: string) => {
    const claimNo = claimNoOf(raw);
    return claimNo ? claimDetail(db, {}, claimNo).catch(refusedAsNull) : null;
  };
  const partnerName = async (partnerId: string) => (await partnerNames(db)).get(partnerId) ?? "";
  const claims = withPartnerFilter((scope) =>
    claimList(db, scope, "/admin/claims", (items) => rowsWithPartner(db, items, (c, partnerName) => claimRow(c, adminHref(c.claimNo), clock, partnerName))),
  );

  const detail = async (claim: ClaimDetailRecord, viewer: PortalViewer, csrf: string, state: ClaimActionState = { values: {} }) => (
    <ClaimDetail
      claim={await claimView(db, claim, { partnerName: await partnerName(claim.partnerId) }, clock)}
      csrf={csrf}
      backHref="/admin/claims"
      state={state}
      assessment={await assessmentView(db, claim, viewer.partnerId)}
      review={{ action: `${adminHref(claim.claimNo)}/review`, moves: operatorMoves(claim), approvalTakes: (await approvalTakes(db, claim))?.words }}
    />
  );

  return new Elysia({ name: "admin-claims" })
    .use(portalSession(deps))
    .get(
      "/admin/claims",
      (ctx) =>
        listAnswer(ctx, claims, {
          shell: shell(ctx.viewer, ctx.csrf, "Claims"),
          rows: (list) => <ClaimRows rows={list.rows} more={list.more} withPartner />,
          page: async (list) => (
            <ClaimList
              title="All partners' claims"
              action="/admin/claims"
              list={list}
              partners={await partnerChoices(db)}
              exportHref={list.exportHref}
              dueFirst={await dueFirst()}
            />
          ),
        }),
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
            page: (limit, cursor) => listClaims(db, partnerScopeOf(query), filters, { limit, cursor }),
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
        return page(request, shell(viewer, csrf, `Claim ${claim.claimNo}`), await detail(claim, viewer, csrf));
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
          // Approving and marking paid settle money: asked first, naming the amounts (src/portal/confirm.ts).
          // A decision refused anyway (not a move from here, too much, a wallet short of what approving takes back) is refused at once.
          const takes = settles(seed.status) ? await approvalTakes(db, claim) : undefined;
          if (settles(seed.status) && (takes?.covered ?? true)) {
            checkTransition(claim.claimNo, claim.status, seed.status, "operator");
            const step = confirmation(csrf, `claim.${seed.status}`, claim.claimNo, approvedKoboOf(seed) ?? "", seed.note ?? "");
            if (!step.given(values)) {
              const view = { ...(await claimView(db, claim, { partnerName: await partnerName(claim.partnerId) }, clock)), productCode: claim.productCode };
              const ask = decisionStep(view, seed.status, approvedKoboOf(seed), takes?.words);
              const fields = { status: seed.status, approvedAmount: values.approvedAmount, note: values.note, ...step.fields };
              const back = { label: "Go back without deciding", href: adminHref(claim.claimNo) };
              const state = {
                values: {},
                ask: { ...ask, id: "claim-decision", target: "#claim", action: `${adminHref(claim.claimNo)}/review`, csrf, fields, back },
              };
              return page(request, shell(viewer, csrf, title), await detail(claim, viewer, csrf, state));
            }
          }
          const reviewed = await reviewClaim(db, {
            claimNo: seed.claimNo,
            status: seed.status,
            note: seed.note,
            approvedKobo: approvedKoboOf(seed),
            by: `admin:${viewer.email}`,
            actor: viewer,
            now: new Date(),
            clock,
          });
          return page(request, shell(viewer, csrf, title), await detail(reviewed, viewer, csrf, { values: {}, done: reviewedText(reviewed) }));
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, shell(viewer, csrf, title), await detail(await claimDetail(db, {}, claim.claimNo), viewer, csrf, { values, problem }));
        }
      },
      { portal: "admin" },
    )
    .post(
      "/admin/claims/:claimNo/assess",
      async ({ viewer, csrf, request, params, body, set }) => {
        const claim = await claimOf(params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such claim."));
        const title = `Claim ${claim.claimNo}`;
        const values = formValues(body);
        try {
          const seed = assessSeedFrom(claim.claimNo, values, formList(body, "check"), claim.checked, claim.assessor);
          const assessed = await assessClaim(db, {
            claimNo: seed.claimNo,
            change: assessmentChangeOf(seed),
            by: `admin:${viewer.email}`,
            actor: viewer,
            now: new Date(),
          });
          return page(request, shell(viewer, csrf, title), await detail(assessed, viewer, csrf, { values: {}, done: "The assessment is saved." }));
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, shell(viewer, csrf, title), await detail(await claimDetail(db, {}, claim.claimNo), viewer, csrf, { values, problem }));
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
