import { Elysia } from "elysia";
import { type ClaimActionState, ClaimDetail, ClaimList, ClaimRows } from "../../../views/claims/claims";
import type { ConfirmStepProps } from "../../../views/portal/confirm";
import { optionsOf } from "../../../views/shared-forms/record";
import { CommandError } from "../../core/errors";
import { formatNaira } from "../../core/money";
import type { AppDeps } from "../../http/context";
import { confirmation } from "../../portal/confirm";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { download, notFound, type ResponseSet, refusedAsNull } from "../../portal/kit";
import { listAnswer, partnerScopeOf, withPartnerFilter } from "../../portal/list";
import { formValues, page, problemOf, typedValue } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { addDays } from "../calendar";
import { partnerChoices, partnerNames, rowsWithPartner } from "../partners";
import { assessClaim } from "./assessment";
import { clockSettings } from "./clock";
import { decideRecommendation, decisionSettings, flaggedForSecondReview, refusalToDecide, reviewClaim } from "./decisions";
import { letterFile, voucherFile } from "./files";
import { approvedKoboOf, assessmentChangeOf, assessSeedFrom, claimNoOf, documentPositionOf, formList, reviewSeedFrom } from "./model";
import { confirmPayee } from "./payee";
import { payoutSettings, resendPayout } from "./payout";
import {
  adminHref,
  approvalTakes,
  assessmentView,
  claimCsvColumns,
  claimCsvRow,
  claimFiltersOf,
  claimList,
  claimView,
  confirmRecommendationStep,
  decisionStep,
  operatorClaimRows,
  operatorMoves,
  payeeConfirmationStep,
  payoutAnswer,
  recommendationView,
  recommendationWords,
  resendStep,
  reviewedText,
  settlementView,
  settles,
} from "./presenter";
import { REJECTION_REASONS } from "./rejections";
import { approvalOf, checkTransition } from "./rules";
import { type ClaimDetail as ClaimDetailRecord, claimDetail, claimDocument, claimsDueFirst, listClaims } from "./service";

/** The operator's claim pages: every partner's claims, a claim with the moves the state machine allows, its documents. */
export const claimAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const clock = clockSettings(deps.config);
  const settings = decisionSettings(deps.config);
  const rejectionReasons = optionsOf(REJECTION_REASONS);
  /** The desk's "due first": open claims overdue or due within the settlement's due-soon window. */
  const dueFirst = async () => {
    const { items, count } = await claimsDueFirst(db, addDays(watToday(new Date()), clock.dueSoonDays), 50);
    const rows = await operatorClaimRows(db, items, clock);
    return { rows, count, dueSoonDays: clock.dueSoonDays };
  };
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "claims", viewer, csrf });
  const claimOf = (raw: string) => {
    const claimNo = claimNoOf(raw);
    return claimNo ? claimDetail(db, {}, claimNo).catch(refusedAsNull) : null;
  };
  const partnerName = async (partnerId: string) => (await partnerNames(db)).get(partnerId) ?? "";
  const claims = withPartnerFilter((scope) => claimList(db, scope, "/admin/claims", (items) => operatorClaimRows(db, items, clock)));

  const detail = async (claim: ClaimDetailRecord, viewer: PortalViewer, csrf: string, state: ClaimActionState = { values: {} }) => {
    const view = await claimView(db, claim, { partnerName: await partnerName(claim.partnerId) }, clock);
    return (
      <ClaimDetail
        claim={view}
        settlement={settlementView(claim, view.insured?.name, "operator")}
        csrf={csrf}
        backHref="/admin/claims"
        state={state}
        assessment={await assessmentView(db, claim, viewer.partnerId)}
        review={{
          action: `${adminHref(claim.claimNo)}/review`,
          moves: operatorMoves(claim),
          approvalTakes: (await approvalTakes(db, claim))?.words,
          rejectionReasons,
        }}
        recommendation={await recommendationView(db, claim, viewer, settings.authority)}
      />
    );
  };
  /**
   * A settlement action that moves money or decides where it goes: asked first (src/portal/confirm.ts),
   * then done; its refusal shown on the claim's page.
   */
  const confirmed = async (
    ctx: { viewer: PortalViewer; csrf: string; request: Request; params: { claimNo: string }; body: unknown; set: ResponseSet },
    action: {
      name: string;
      path: string;
      step: (claim: ClaimDetailRecord, insured: string) => Pick<ConfirmStepProps, "heading" | "lines" | "consequences" | "button">;
      refuse: (claim: ClaimDetailRecord) => void;
      run: (claim: ClaimDetailRecord) => Promise<string | Pick<ClaimActionState, "done" | "notice">>;
    },
  ) => {
    const { viewer, csrf, request, params, body, set } = ctx;
    const claim = await claimOf(params.claimNo);
    if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such claim."));
    const title = `Claim ${claim.claimNo}`;
    const values = formValues(body);
    try {
      action.refuse(claim);
      const step = confirmation(csrf, action.name, claim.claimNo, claim.updatedAt.toISOString());
      if (!step.given(values)) {
        const view = await claimView(db, claim, { partnerName: await partnerName(claim.partnerId) }, clock);
        const ask = action.step(claim, view.insured?.name ?? "the insured");
        const back = { label: "Go back without doing it", href: adminHref(claim.claimNo) };
        const state = {
          values: {},
          ask: { ...ask, id: "claim-settlement", target: "#claim", action: `${adminHref(claim.claimNo)}/${action.path}`, csrf, fields: step.fields, back },
        };
        return page(request, shell(viewer, csrf, title), await detail(claim, viewer, csrf, state));
      }
      const answer = await action.run(claim);
      const said = typeof answer === "string" ? { done: answer } : answer;
      return page(request, shell(viewer, csrf, title), await detail(await claimDetail(db, {}, claim.claimNo), viewer, csrf, { values: {}, ...said }));
    } catch (error) {
      return page(request, shell(viewer, csrf, title), await refused(claim.claimNo, viewer, csrf, values, error, set));
    }
  };
  /** The claim page again after a refusal: the claim as it is now, what was typed, and why. */
  const refused = async (
    claimNo: string,
    viewer: PortalViewer,
    csrf: string,
    values: Record<string, string | undefined>,
    error: unknown,
    set: { status?: unknown },
  ) => {
    const problem = problemOf(error);
    set.status = error instanceof CommandError ? error.status : 400;
    return detail(await claimDetail(db, {}, claimNo), viewer, csrf, { values, problem });
  };
  /** The claim as its confirmation steps describe it. */
  const viewOf = async (claim: ClaimDetailRecord) => ({
    ...(await claimView(db, claim, { partnerName: await partnerName(claim.partnerId) }, clock)),
    productCode: claim.productCode,
  });

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
          // Approving settles money: asked first, naming the amounts (src/portal/confirm.ts), and saying when it is only a
          // recommendation. A decision refused anyway (not a move from here, too much, a wallet short of what approving
          // takes back) is refused at once.
          const takes = settles(seed.status) ? await approvalTakes(db, claim) : undefined;
          if (settles(seed.status) && (takes?.covered ?? true)) {
            checkTransition(claim.claimNo, claim.status, seed.status, "operator");
            const approvedKobo = approvedKoboOf(seed);
            const step = confirmation(csrf, `claim.${seed.status}`, claim.claimNo, approvedKobo ?? "", seed.note ?? "");
            if (!step.given(values)) {
              const amountKobo = approvalOf(claim, approvedKobo).payableKobo;
              const recommends = await recommendationWords(db, viewer, amountKobo, settings.authority, await flaggedForSecondReview(db, claim));
              const ask = decisionStep(await viewOf(claim), approvedKobo, takes?.words, recommends);
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
            rejectionReason: seed.rejectionReason,
            by: `admin:${viewer.email}`,
            actor: viewer,
            now: new Date(),
            settings,
          });
          return page(request, shell(viewer, csrf, title), await detail(reviewed, viewer, csrf, { values: {}, done: reviewedText(reviewed) }));
        } catch (error) {
          return page(request, shell(viewer, csrf, title), await refused(claim.claimNo, viewer, csrf, values, error, set));
        }
      },
      { portal: "admin" },
    )
    .post(
      "/admin/claims/:claimNo/recommendation",
      async ({ viewer, csrf, request, params, body, set }) => {
        const claim = await claimOf(params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such claim."));
        const title = `Claim ${claim.claimNo}`;
        const values = formValues(body);
        const choice = values.choice === "return" ? "return" : "confirm";
        try {
          const waiting = claim.awaiting;
          // Confirming an approval settles money: asked first, as any approval is.
          if (choice === "confirm" && waiting?.decision === "approved") {
            const refusal = await refusalToDecide(db, waiting, viewer, settings.authority, "confirm");
            if (refusal) throw refusal;
            const step = confirmation(csrf, "claim.confirm", claim.claimNo, waiting.id);
            if (!step.given(values)) {
              const ask = confirmRecommendationStep(await viewOf(claim), waiting.approvedKobo ?? claim.claimedKobo, (await approvalTakes(db, claim))?.words);
              const back = { label: "Go back without deciding", href: adminHref(claim.claimNo) };
              const state = {
                values: {},
                ask: {
                  ...ask,
                  id: "claim-decision",
                  target: "#claim",
                  action: `${adminHref(claim.claimNo)}/recommendation`,
                  csrf,
                  fields: { choice, ...step.fields },
                  back,
                },
              };
              return page(request, shell(viewer, csrf, title), await detail(claim, viewer, csrf, state));
            }
          }
          const decided = await decideRecommendation(db, {
            claimNo: claim.claimNo,
            choice,
            note: typedValue(values.note),
            by: `admin:${viewer.email}`,
            actor: viewer,
            now: new Date(),
            settings,
          });
          const done = choice === "return" ? "The recommendation is sent back: the claim stays in review." : reviewedText(decided);
          return page(request, shell(viewer, csrf, title), await detail(decided, viewer, csrf, { values: {}, done }));
        } catch (error) {
          return page(request, shell(viewer, csrf, title), await refused(claim.claimNo, viewer, csrf, values, error, set));
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
          return page(request, shell(viewer, csrf, title), await refused(claim.claimNo, viewer, csrf, values, error, set));
        }
      },
      { portal: "admin" },
    )
    .post(
      "/admin/claims/:claimNo/payee/confirm",
      (ctx) =>
        confirmed(ctx, {
          name: "claim.payee_confirm",
          path: "payee/confirm",
          step: payeeConfirmationStep,
          refuse: (claim) => {
            if (claim.payeeNameCheck !== "mismatch") throw new CommandError(409, "This account needs no confirmation.");
          },
          run: async (claim) => {
            const confirmedPayee = await confirmPayee(db, {
              claimNo: claim.claimNo,
              by: `admin:${ctx.viewer.email}`,
              actor: ctx.viewer,
              letters: settings.letters,
              now: new Date(),
            });
            return `The account is confirmed as the insured's${confirmedPayee.voucher && !claim.voucher ? `: discharge voucher version ${confirmedPayee.voucher.version} is issued` : ""}.`;
          },
        }),
      { portal: "admin" },
    )
    .post(
      "/admin/claims/:claimNo/payout/resend",
      (ctx) =>
        confirmed(ctx, {
          name: "claim.payout_resend",
          path: "payout/resend",
          step: (claim) => resendStep(claim, clock),
          refuse: (claim) => {
            if (!claim.voucher?.acceptedAt || !claim.payout || !["failed", "reversed"].includes(claim.payout.status))
              throw new CommandError(409, "This claim has no failed payout to send again.");
          },
          run: async (claim) => {
            const sent = await resendPayout(db, payoutSettings(deps.config), {
              claimNo: claim.claimNo,
              by: `admin:${ctx.viewer.email}`,
              actor: ctx.viewer,
              now: new Date(),
            });
            return payoutAnswer(await claimDetail(db, {}, claim.claimNo), `${formatNaira(sent.amountKobo)} is sent again (transfer ${sent.reference})`);
          },
        }),
      { portal: "admin" },
    )
    .get(
      "/admin/claims/:claimNo/voucher/:file",
      async ({ params, set }) => {
        const claimNo = claimNoOf(params.claimNo);
        const file = claimNo ? await voucherFile(db, {}, claimNo, params.file) : null;
        return file ? download(file) : notFound(set, "No such voucher.");
      },
      { portal: "admin" },
    )
    .get(
      "/admin/claims/:claimNo/letter.pdf",
      async ({ params, set }) => {
        const claimNo = claimNoOf(params.claimNo);
        const file = claimNo ? await letterFile(db, {}, claimNo, deps.config.INSURER_NAME) : null;
        return file ? download(file) : notFound(set, "No rejection letter for this claim.");
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
