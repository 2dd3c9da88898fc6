import { Elysia } from "elysia";
import { type FundingActionState, OperatorFundingsPage } from "../../../views/funding/funding";
import { CommandError } from "../../core/errors";
import { log } from "../../core/log";
import { formatNaira } from "../../core/money";
import { countRefusal, type RateDecision, refusalKeys } from "../../core/rate-limit";
import { bodyPace, readBoundedBytes, UnidentifiedBodiesAtCapacity } from "../../http/body";
import { clientAddressOf } from "../../http/client-address";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { partnerNames } from "../partners";
import { receiveCallback } from "./callbacks";
import { confirmTransfer, decideConfirmation, resolveHeld } from "./confirmations";
import { operatorFundings, requesterEmails } from "./lists";
import { confirmationFrom } from "./model";
import { operatorFundingRow } from "./presenter";
import { paymentProvider } from "./providers";

/** A provider's callback is a small JSON document; anything larger is not one. */
const MAX_CALLBACK_BYTES = 64 * 1024;

function tooMany(set: { status?: number | string; headers: Record<string, string | number> }, decision: RateDecision) {
  set.status = 429;
  set.headers["retry-after"] = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
  return { status: "too many refused callbacks" };
}

/**
 * POST /funding/callbacks/<provider>: the payment provider's signed callback, outside the portal
 * session (the signature is the authentication). The raw body is read within a small cap and
 * verified before it is parsed; the answer is quick (the provider retries on anything but 2xx).
 */
export const fundingCallbackRoute = (deps: AppDeps) => {
  const provider = paymentProvider(deps.config);
  const clientAddress = clientAddressOf(deps.config.TRUSTED_PROXIES);
  const pace = bodyPace(deps.config);
  return new Elysia({ name: "funding-callbacks" }).post(
    "/funding/callbacks/:provider",
    async ({ request, params, set, server }) => {
      if (params.provider !== provider.name) {
        set.status = 404;
        return { status: "unknown provider" };
      }
      // An address that keeps sending forged callbacks is refused before its body is read or stored.
      const addressKey = refusalKeys.address(clientAddress(request, server));
      const blocked = await deps.refusalLimiter.peek(addressKey);
      if (!blocked.allowed) return tooMany(set, blocked);
      let body: Uint8Array;
      try {
        body = await readBoundedBytes(request, { maxBytes: MAX_CALLBACK_BYTES, pace, unidentified: deps.capacity });
      } catch (error) {
        if (error instanceof UnidentifiedBodiesAtCapacity) {
          set.status = 503;
          return { status: "try again" };
        }
        if (!(error instanceof CommandError)) throw error;
        // Too large or too slow: not a callback of the provider's, and counted like a forged one.
        set.headers.connection = "close";
        const decision = await countRefusal(deps.refusalLimiter, [addressKey]);
        if (!decision.allowed) return tooMany(set, decision);
        set.status = error.status;
        return { status: "refused" };
      }
      try {
        const answer = await receiveCallback(
          deps.database.db,
          provider,
          body,
          request.headers.get(provider.signatureHeader),
          (deps.now ?? (() => new Date()))(),
        );
        if (answer.status === 401) {
          const decision = await countRefusal(deps.refusalLimiter, [addressKey]);
          if (!decision.allowed) return tooMany(set, decision);
        }
        set.status = answer.status;
        return { status: answer.outcome };
      } catch (error) {
        // The provider tries again later: nothing was half-written (one transaction).
        log.error("funding callback failed", { provider: provider.name, error: String(error) });
        set.status = 503;
        return { status: "try again" };
      }
    },
    { parse: "none" },
  );
};

/** The operator's fundings page: pending and held live top-ups, manual confirmation with four eyes, held decisions. */
export const fundingAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const fourEyesKobo = deps.config.FUNDING_FOUR_EYES_KOBO;
  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Wallet fundings", active: "fundings", viewer, csrf });

  async function fundingsPage(viewer: PortalViewer, csrf: string, state: FundingActionState, confirming?: string) {
    const list = await operatorFundings(db);
    const names = {
      partners: await partnerNames(
        db,
        list.map((item) => item.funding.partnerId),
      ),
      admins: await requesterEmails(
        db,
        list.flatMap((item) => (item.awaiting ? [item.awaiting.requestedBy] : [])),
      ),
    };
    const rows = list.map((item) => operatorFundingRow(item.funding, item.awaiting, names, viewer.userId));
    return <OperatorFundingsPage rows={rows} fourEyesKobo={fourEyesKobo} csrf={csrf} state={state} confirming={confirming} />;
  }

  /** Run one administrator action and answer the page with its outcome (or its refusal, on the funding it was about). */
  async function act(
    viewer: PortalViewer,
    csrf: string,
    request: Request,
    set: { status?: number | string },
    fundingId: string | undefined,
    values: Record<string, string | undefined>,
    action: () => Promise<string>,
  ) {
    let state: FundingActionState;
    try {
      state = { values: {}, done: await action() };
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
        page(request, shell(viewer, csrf), await fundingsPage(viewer, csrf, { values: {} }, query.confirm || undefined)),
      { portal: "admin" },
    )
    .post(
      "/admin/fundings/:id/confirm",
      async ({ viewer, csrf, request, body, params, set }) => {
        const values = formValues(body);
        return act(viewer, csrf, request, set, params.id, values, async () => {
          const input = confirmationFrom(values);
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
      async ({ viewer, csrf, request, params, set }) =>
        act(viewer, csrf, request, set, undefined, {}, async () => {
          if (params.decision !== "approve" && params.decision !== "reject") throw new CommandError(404, "no such decision");
          const { funding, confirmation, outcome } = await decideConfirmation(db, params.id, params.decision, viewer, new Date());
          return outcome === "rejected"
            ? `The confirmation of ${funding.reference} is rejected: nothing was credited.`
            : confirmationWords(outcome, confirmation.amountKobo);
        }),
      { portal: "admin" },
    )
    .post(
      "/admin/fundings/:id/:decision",
      async ({ viewer, csrf, request, params, set }) =>
        act(viewer, csrf, request, set, params.id, {}, async () => {
          if (params.decision !== "credit-held" && params.decision !== "reject-held") throw new CommandError(404, "no such decision");
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
