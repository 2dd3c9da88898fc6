import { Elysia } from "elysia";
import { type FundingActionState, OperatorFundingsPage } from "../../../views/funding/funding";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { formatNaira } from "../../core/money";
import { storableText } from "../../core/validation";
import type { AppDeps } from "../../http/context";
import { providerCallbackRoute } from "../../http/provider-callbacks";
import { confirmation } from "../../portal/confirm";
import { exportHref, PAGE_SIZE, refusedAsNull } from "../../portal/kit";
import type { ListQuery } from "../../portal/list";
import { formValues, page, problemOf, typedValue } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { partnerNames } from "../partners";
import { receiveCallback } from "./callbacks";
import { confirmationToApprove, confirmTransfer, decideConfirmation, fundingToConfirm, heldToCredit, resolveHeld } from "./confirmations";
import { FUNDING_SHOWS, fundingHistory, fundingShowOf, fundingTrails, operatorFundings, requesterEmails } from "./lists";
import { confirmationFrom } from "./model";
import { approvalStep, type CreditStep, heldCreditStep, operatorFundingRow, transferStep } from "./presenter";
import { paymentProvider } from "./providers";

/**
 * POST /funding/callbacks/<provider>: the payment provider's signed callback (src/http/provider-callbacks.ts).
 */
export const fundingCallbackRoute = (deps: AppDeps) => {
  const provider = paymentProvider(deps.config);
  return providerCallbackRoute(deps, {
    name: "funding-callbacks",
    path: "/funding/callbacks/:provider",
    providers: [provider],
    receive: (_provider, body, signature, now) => receiveCallback(deps.database.db, provider, body, signature, now),
  });
};

/** The operator's fundings page: pending and held live top-ups, manual confirmation with four eyes, held decisions. */
export const fundingAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const fourEyesKobo = deps.config.FUNDING_FOUR_EYES_KOBO;
  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Wallet fundings", active: "fundings", viewer, csrf });
  const partnerName = async (partnerId: string) => (await partnerNames(db, [partnerId])).get(partnerId) ?? "the partner";

  /**
   * The page: the open fundings (the work, oldest first, all of them) or, as the filter says, a
   * history newest first by pages; each funding with its trail. `query` is the list's filters.
   */
  async function fundingsPage(viewer: PortalViewer, csrf: string, state: FundingActionState, confirming?: string, query: ListQuery = {}) {
    const reference = typedValue(query.reference)?.slice(0, 64);
    const values = {
      show: query.show && query.show in FUNDING_SHOWS && query.show !== "open" ? query.show : undefined,
      partner: normaliseUuid(query.partner) ?? undefined,
      // A NUL cannot be looked for (the database refuses it): it becomes U+FFFD, which no reference holds.
      reference: reference && storableText(reference),
    };
    const selection = { show: fundingShowOf(values.show, "open"), partnerId: values.partner, reference: values.reference };
    const history =
      selection.show === "open" ? null : await fundingHistory(db, selection, { limit: PAGE_SIZE, cursor: typedValue(query.cursor) }).catch(refusedAsNull);
    const fundings = history ? history.items : selection.show === "open" ? await operatorFundings(db, selection) : [];
    const [{ trails, admins }, partners] = await Promise.all([fundingTrails(db, fundings), partnerNames(db)]);
    const rows = fundings.map((funding) => operatorFundingRow(funding, trails.get(funding.id), { partners, admins }, viewer.userId));
    const olderHref = history?.nextCursor ? exportHref("/admin/fundings", { ...values, cursor: history.nextCursor }) : null;
    const choices = [...partners.entries()].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
    return (
      <OperatorFundingsPage
        rows={rows}
        filters={{ values, partners: choices }}
        olderHref={olderHref}
        fourEyesKobo={fourEyesKobo}
        csrf={csrf}
        state={state}
        confirming={confirming}
      />
    );
  }

  /**
   * Run one administrator action and answer the page with its outcome (or its refusal, on the funding
   * it was about); or with the confirmation it asks first, on the funding's card, whose form sends
   * `fields` back to the same address.
   */
  async function act(
    viewer: PortalViewer,
    csrf: string,
    request: Request,
    set: { status?: number | string },
    fundingId: string | undefined,
    values: Record<string, string | undefined>,
    action: () => Promise<string | { ask: CreditStep; about: string; fields: Record<string, string | undefined> }>,
  ) {
    let state: FundingActionState;
    try {
      const outcome = await action();
      state =
        typeof outcome === "string"
          ? { values: {}, done: outcome }
          : {
              fundingId: outcome.about,
              values: {},
              ask: {
                ...outcome.ask,
                id: `confirm-${outcome.about}`,
                target: "#fundings",
                action: new URL(request.url).pathname,
                csrf,
                fields: outcome.fields,
                back: { label: "Go back without crediting", href: `/admin/fundings#funding-${outcome.about}` },
              },
            };
    } catch (error) {
      set.status = error instanceof CommandError ? error.status : 400;
      state = { fundingId, values, problem: problemOf(error) };
    }
    return page(request, shell(viewer, csrf), await fundingsPage(viewer, csrf, state));
  }

  return new Elysia({ name: "admin-fundings" })
    .use(portalSession(deps))
    .get(
      "/admin/fundings",
      async ({ viewer, csrf, request, query }) =>
        page(request, shell(viewer, csrf), await fundingsPage(viewer, csrf, { values: {} }, query.confirm || undefined, query)),
      { portal: "admin" },
    )
    .post(
      "/admin/fundings/:id/confirm",
      async ({ viewer, csrf, request, body, params, set }) => {
        const values = formValues(body);
        return act(viewer, csrf, request, set, params.id, values, async () => {
          const input = confirmationFrom(values);
          const step = confirmation(csrf, "funding.confirm", params.id, input.bankReference, input.amountKobo);
          if (!step.given(values)) {
            const funding = await fundingToConfirm(db, params.id);
            return {
              ask: transferStep(funding, await partnerName(funding.partnerId), input, fourEyesKobo),
              about: funding.id,
              fields: { bankReference: input.bankReference, amount: values.amount, ...step.fields },
            };
          }
          const { outcome } = await confirmTransfer(db, params.id, input, viewer, fourEyesKobo, new Date());
          return outcome === "awaiting_approval"
            ? `The confirmation of ${formatNaira(input.amountKobo)} waits for a second administrator's approval.`
            : confirmationWords(outcome, input.amountKobo);
        });
      },
      { portal: "admin" },
    )
    .post(
      "/admin/fundings/confirmations/:id/:decision",
      async ({ viewer, csrf, request, params, body, set }) =>
        act(viewer, csrf, request, set, undefined, {}, async () => {
          if (params.decision !== "approve" && params.decision !== "reject") throw new CommandError(404, "no such decision");
          // Approving credits the wallet: asked first. Rejecting moves nothing.
          if (params.decision === "approve") {
            const asked = await confirmationToApprove(db, params.id, viewer);
            const step = confirmation(csrf, "funding.approve", params.id, asked.confirmation.amountKobo);
            if (!step.given(formValues(body))) {
              const askedBy = (await requesterEmails(db, [asked.confirmation.requestedBy])).get(asked.confirmation.requestedBy) ?? "another administrator";
              return {
                ask: approvalStep(asked.funding, asked.confirmation, await partnerName(asked.funding.partnerId), askedBy),
                about: asked.funding.id,
                fields: step.fields,
              };
            }
          }
          const { funding, confirmation: decided, outcome } = await decideConfirmation(db, params.id, params.decision, viewer, new Date());
          return outcome === "rejected"
            ? `The confirmation of ${funding.reference} is rejected: nothing was credited.`
            : confirmationWords(outcome, decided.amountKobo);
        }),
      { portal: "admin" },
    )
    .post(
      "/admin/fundings/:id/:decision",
      async ({ viewer, csrf, request, params, body, set }) =>
        act(viewer, csrf, request, set, params.id, {}, async () => {
          if (params.decision !== "credit-held" && params.decision !== "reject-held") throw new CommandError(404, "no such decision");
          // Crediting is asked first; rejecting moves nothing (the browser asks, views/funding).
          if (params.decision === "credit-held") {
            const held = await heldToCredit(db, params.id);
            const step = confirmation(csrf, "funding.credit-held", held.id, held.receivedKobo ?? 0);
            if (!step.given(formValues(body)))
              return { ask: heldCreditStep(held, await partnerName(held.partnerId), fourEyesKobo), about: held.id, fields: step.fields };
          }
          const { funding, outcome } = await resolveHeld(
            db,
            params.id,
            params.decision === "credit-held" ? "credit" : "reject",
            viewer,
            fourEyesKobo,
            new Date(),
          );
          const received = formatNaira(funding.receivedKobo ?? 0);
          return outcome === "credited"
            ? `Credited ${received} for ${funding.reference}.`
            : outcome === "awaiting_approval"
              ? `The credit of ${received} for ${funding.reference} waits for a second administrator's approval.`
              : `${funding.reference} is rejected: nothing was credited.`;
        }),
      { portal: "admin" },
    );
};

const confirmationWords = (outcome: string, amountKobo: number) =>
  outcome === "credited"
    ? `Confirmed: ${formatNaira(amountKobo)} is credited to the partner's wallet.`
    : outcome === "held"
      ? `Confirmed, but ${formatNaira(amountKobo)} is not the amount asked for: the funding is held for a decision below.`
      : "Nothing changed: the funding was already settled.";
