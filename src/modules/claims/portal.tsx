import { Elysia } from "elysia";
import { CLAIM_DOCUMENT_INPUTS, type ClaimActionState, ClaimDetail, ClaimForm, ClaimList, ClaimRows } from "../../../views/claims/claims";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { confirmation } from "../../portal/confirm";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { download, notFound, redirectTo, refusedAsNull } from "../../portal/kit";
import { listAnswer } from "../../portal/list";
import { formValues, givenFields, page, problemOf, typedValue } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { payoutProvider } from "../payouts";
import { findPolicyByReference } from "../policies";
import { signalSettings } from "../signals";
import { clockSettings } from "./clock";
import { decisionSettings } from "./decisions";
import { letterFile, voucherFile } from "./files";
import {
  acceptSeed,
  claimNoOf,
  claimRequestFrom,
  documentPositionOf,
  documentsFrom,
  parseClaimSeed,
  payeeSeed,
  respondSeed,
  respondSeedFrom,
  submitSeed,
  submitSeedFrom,
  withdrawSeedFrom,
} from "./model";
import { setPayee } from "./payee";
import { acceptAndPay, payoutSettings } from "./payout";
import {
  acceptanceStep,
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
  payoutAnswer,
  settlementView,
} from "./presenter";
import { type ClaimDetail as ClaimDetailRecord, claimDetail, claimDocument, listClaims, respondToClaim, submitClaim, withdrawClaim } from "./service";

const NO_CLAIM = "No claim with this number on your account.";

/** The partner's claim pages: the list, a new claim (with documents), a claim and its withdrawal, its documents. */
export const claimPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const maxDocumentBytes = deps.config.MAX_DOCUMENT_BYTES;
  const clock = clockSettings(deps.config);
  const settings = decisionSettings(deps.config);
  const payouts = payoutSettings(deps.config);
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

  /** The claim page, with the withdraw form while the claim can be withdrawn, and how it is paid. */
  const detail = async (claim: ClaimDetailRecord, csrf: string, state: ClaimActionState = { values: {} }) => {
    const view = await claimView(db, claim, null, clock);
    return (
      <ClaimDetail
        claim={view}
        csrf={csrf}
        backHref="/portal/claims"
        state={state}
        withdrawAction={canWithdraw(claim) ? `${partnerHref(claim.claimNo)}/withdraw` : undefined}
        respondAction={claim.status === "info_requested" ? `${partnerHref(claim.claimNo)}/respond` : undefined}
        settlement={settlementView(claim, view.insured?.name, "partner")}
      />
    );
  };
  /** The claim page again after a refusal: the claim as it is now, what was typed, and why. */
  const refused = async (
    viewer: PortalViewer,
    claimNo: string,
    csrf: string,
    values: Record<string, string | undefined>,
    error: unknown,
    set: { status?: unknown },
  ) => {
    const problem = problemOf(error);
    set.status = error instanceof CommandError ? error.status : 400;
    return detail(await claimDetail(db, { partnerId: viewer.partnerId }, claimNo), csrf, { values, problem });
  };

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
            signals: await signalSettings(db, deps.config),
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
            signals: await signalSettings(db, deps.config),
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
          return page(request, shell(viewer, csrf, title), await refused(viewer, claim.claimNo, csrf, values, error, set));
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/claims/:claimNo/payee",
      async ({ viewer, csrf, request, params, body, set }) => {
        const claim = await claimOf(viewer, params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_CLAIM));
        const values = formValues(body);
        const title = `Claim ${claim.claimNo}`;
        try {
          const seed = parseClaimSeed(
            payeeSeed,
            givenFields({ claimNo: claim.claimNo, bankCode: typedValue(values.bankCode), accountNumber: typedValue(values.accountNumber)?.replace(/\s/g, "") }),
          );
          const paid = await setPayee(db, {
            partnerId: viewer.partnerId,
            mode: viewer.mode,
            claimNo: seed.claimNo,
            account: { bankCode: seed.bankCode, accountNumber: seed.accountNumber },
            provider: (mode) => payoutProvider(deps.config, mode),
            letters: settings.letters,
            signals: await signalSettings(db, deps.config),
            now: new Date(),
            actor: viewer,
          });
          const done =
            paid.payeeNameCheck === "mismatch"
              ? "The account is saved. The bank's name for it does not match the insured's: the insurer checks it before paying."
              : `The account is saved${paid.voucher && paid.voucher.version > (claim.voucher?.version ?? 0) ? `: discharge voucher version ${paid.voucher.version} names it` : ""}.`;
          return page(request, shell(viewer, csrf, title), await detail(paid, csrf, { values: {}, done }));
        } catch (error) {
          return page(request, shell(viewer, csrf, title), await refused(viewer, claim.claimNo, csrf, values, error, set));
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/claims/:claimNo/accept",
      async ({ viewer, csrf, request, params, body, set }) => {
        const claim = await claimOf(viewer, params.claimNo);
        if (!claim) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_CLAIM));
        const values = formValues(body);
        const title = `Claim ${claim.claimNo}`;
        try {
          const seed = parseClaimSeed(acceptSeed, { claimNo: claim.claimNo, version: Number(values.version) });
          // Accepting sends money: asked first, naming the amount and the account (src/portal/confirm.ts).
          const step = confirmation(csrf, "claim.accept", claim.claimNo, seed.version);
          if (!step.given(values) && claim.voucher?.version === seed.version && !claim.voucher.acceptedAt) {
            const view = await claimView(db, claim, null, clock);
            const ask = acceptanceStep(claim, view.insured?.name ?? "the insured");
            const state = {
              values: {},
              ask: {
                ...ask,
                id: "claim-acceptance",
                target: "#claim",
                action: `${partnerHref(claim.claimNo)}/accept`,
                csrf,
                fields: { version: String(seed.version), ...step.fields },
                back: { label: "Go back without recording it", href: partnerHref(claim.claimNo) },
              },
            };
            return page(request, shell(viewer, csrf, title), await detail(claim, csrf, state));
          }
          await acceptAndPay(db, payouts, {
            partnerId: viewer.partnerId,
            mode: viewer.mode,
            claimNo: claim.claimNo,
            version: seed.version,
            channel: "portal",
            by: viewer.email,
            now: new Date(),
          });
          const accepted = await claimDetail(db, { partnerId: viewer.partnerId }, claim.claimNo);
          const answer = payoutAnswer(accepted, "The acceptance is recorded");
          return page(request, shell(viewer, csrf, title), await detail(accepted, csrf, { values: {}, ...answer }));
        } catch (error) {
          return page(request, shell(viewer, csrf, title), await refused(viewer, claim.claimNo, csrf, values, error, set));
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/claims/:claimNo/voucher/:file",
      async ({ viewer, params, set }) => {
        const claimNo = claimNoOf(params.claimNo);
        const file = claimNo ? await voucherFile(db, { partnerId: viewer.partnerId }, claimNo, params.file) : null;
        return file ? download(file) : notFound(set, "No such voucher among your claims.");
      },
      { portal: "partner" },
    )
    .get(
      "/portal/claims/:claimNo/letter.pdf",
      async ({ viewer, params, set }) => {
        const claimNo = claimNoOf(params.claimNo);
        const file = claimNo ? await letterFile(db, { partnerId: viewer.partnerId }, claimNo, deps.config.INSURER_NAME) : null;
        return file ? download(file) : notFound(set, "No rejection letter for this claim.");
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
