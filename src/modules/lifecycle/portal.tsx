import { type AnyElysia, Elysia } from "elysia";
import { CancelForm, RefundPreviewBlock } from "../../../views/lifecycle/cancel";
import { ChangeDecision, ChangeForm } from "../../../views/lifecycle/change";
import { ConfirmChange, type ConfirmChangeProps } from "../../../views/lifecycle/confirm";
import type { FormProblem } from "../../../views/portal/ui";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import type { Database } from "../../db/client";
import type { AppDeps } from "../../http/context";
import { notFound, type ResponseSet, redirectTo } from "../../portal/kit";
import { formValues, page, problemOf, typedValue } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { CANCELLATION_REASONS, type CancellationReason } from "../../products/cancellation";
import type { PolicyRecord } from "../policies";
import { endorsementsOf, findPolicyByReference, policiesByIds } from "../policies";
import { cancelPolicy } from "./cancellation";
import type { Canceller } from "./changes";
import { decideEndorsement, endorsePolicy } from "./endorsements";
import { typedEffectiveDate } from "./model";
import {
  cancelFormView,
  changeDecisionView,
  changeFormView,
  changeReferenceOf,
  refundPreview,
  refusalText,
  reinstateView,
  renewView,
  requestedChanges,
} from "./presenter";
import { reinstatePolicy } from "./reinstatement";
import { renewPolicy } from "./renewal";

/** One surface's way to its policies: the partner's by reference, the operator's by id. */
interface Surface {
  name: string;
  /** The policy page's route, with its one parameter (the same name as the policy pages' own). */
  route: "/portal/policies/:reference" | "/admin/policies/:id";
  access: "partner" | "admin";
  active: string;
  find(db: Database, viewer: PortalViewer, key: string): Promise<PolicyRecord | null>;
  base(policy: PolicyRecord): string;
  canceller(viewer: PortalViewer): Canceller;
}

const SURFACES: readonly Surface[] = [
  {
    name: "portal-cancellation",
    route: "/portal/policies/:reference",
    access: "partner",
    active: "policies",
    find: (db, viewer, key) => findPolicyByReference(db, viewer.partnerId, decodeURIComponent(key)),
    base: (p) => `/portal/policies/${encodeURIComponent(p.reference)}`,
    canceller: (viewer) => ({ kind: "partner", partnerId: viewer.partnerId, mode: viewer.mode, actor: viewer }),
  },
  {
    name: "admin-cancellation",
    route: "/admin/policies/:id",
    access: "admin",
    active: "policies",
    find: async (db, _viewer, key) => {
      const id = normaliseUuid(key);
      return id ? ((await policiesByIds(db, [id]))[0] ?? null) : null;
    },
    base: (p) => `/admin/policies/${p.id}`,
    canceller: (viewer) => ({ kind: "operator", by: `admin:${viewer.email}`, actor: viewer }),
  },
];

/** The route's one parameter, whichever its name. */
const keyOf = (params: Record<string, string>) => Object.values(params)[0] ?? "";

const NO_POLICY = "No policy with this reference here.";
const asReason = (value: string | undefined) => ((CANCELLATION_REASONS as readonly string[]).includes(value ?? "") ? (value as CancellationReason) : undefined);

/** What a page handler reads of its request. */
interface PageContext {
  viewer: PortalViewer;
  csrf: string;
  request: Request;
  params: Record<string, string>;
  body?: unknown;
  set: ResponseSet;
}

/** A change confirmed on its own page: what the page shows (or why it cannot be made), and the change, giving the policy whose page follows. */
interface ConfirmedChange {
  verb: "Reinstate" | "Renew";
  view(db: Database, canceller: Canceller, policy: PolicyRecord, base: string, csrf: string, now: Date, problem?: string): Promise<ConfirmChangeProps>;
  /** The change under the page's reference: confirming the same page again answers as the first time. */
  make(db: Database, canceller: Canceller, policy: PolicyRecord, reference: string, now: Date): Promise<PolicyRecord>;
}

const REINSTATE: ConfirmedChange = {
  verb: "Reinstate",
  view: (db, canceller, policy, base, csrf, now, problem) => reinstateView(db, canceller, policy, base, csrf, now, problem),
  make: async (db, canceller, policy, reference, now) => (await reinstatePolicy(db, canceller, { policyId: policy.id }, reference, now)).policy,
};
/** Renewing, priced and decided as insure with the app's insurer delay. */
const renewing = (insurerDelayMs: number): ConfirmedChange => ({
  verb: "Renew",
  view: (db, canceller, policy, base, csrf, now, problem) => renewView(db, canceller, policy, base, csrf, now, insurerDelayMs, problem),
  // The renewal's page follows: the new policy.
  make: async (db, canceller, policy, reference, now) => (await renewPolicy(db, canceller, { policyId: policy.id }, reference, now, insurerDelayMs)).renewal,
});

/** The confirmation pages of one surface: the page, then the change (or the page again with the refusal in words). */
function confirmationPages(db: Database, surface: Surface) {
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: surface.active, viewer, csrf });
  const respond = async (change: ConfirmedChange, { viewer, csrf, request, params, set }: PageContext, problem?: (policy: PolicyRecord) => string) => {
    const policy = await surface.find(db, viewer, keyOf(params));
    if (!policy) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_POLICY));
    const view = await change.view(db, surface.canceller(viewer), policy, surface.base(policy), csrf, new Date(), problem?.(policy));
    return page(request, shell(viewer, csrf, `${change.verb} policy ${view.policyName}`), <ConfirmChange {...view} />);
  };
  return {
    show: (change: ConfirmedChange, ctx: PageContext) => respond(change, ctx),
    async confirm(change: ConfirmedChange, ctx: PageContext) {
      const policy = await surface.find(db, ctx.viewer, keyOf(ctx.params));
      if (!policy) return respond(change, ctx);
      try {
        const next = await change.make(db, surface.canceller(ctx.viewer), policy, changeReferenceOf(formValues(ctx.body)), new Date());
        return redirectTo(ctx.request, ctx.set, surface.base(next));
      } catch (error) {
        if (!(error instanceof CommandError)) throw error;
        ctx.set.status = error.status;
        return respond(change, ctx, () => refusalText(error));
      }
    },
  };
}

/** The lifecycle pages of one surface: cancellation (the form with its refund preview, the preview alone, the cancellation itself), reinstatement, renewal and changes. */
function cancellationPages(deps: AppDeps, surface: Surface) {
  const db = deps.database.db;
  const renew = renewing(deps.config.INSURER_DELAY_MS);
  const confirmation = confirmationPages(db, surface);
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: surface.active, viewer, csrf });
  return new Elysia({ name: surface.name })
    .use(portalSession(deps))
    .get(
      `${surface.route}/cancel`,
      async ({ viewer, csrf, request, params, set }) => {
        const policy = await surface.find(db, viewer, keyOf(params));
        if (!policy) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_POLICY));
        const form = await cancelFormView(db, surface.canceller(viewer), policy, surface.base(policy), { csrf, values: {} }, new Date());
        return page(request, shell(viewer, csrf, `Cancel policy ${form.policyName}`), <CancelForm {...form} />);
      },
      { portal: surface.access },
    )
    .get(
      `${surface.route}/cancel/refund`,
      async ({ viewer, params, query, set }) => {
        const policy = await surface.find(db, viewer, keyOf(params));
        if (!policy) return notFound(set, NO_POLICY);
        const date = typeof query.effectiveDate === "string" ? typedValue(query.effectiveDate) : undefined;
        return <RefundPreviewBlock {...(await refundPreview(db, surface.canceller(viewer), policy, date, new Date()))} />;
      },
      { portal: surface.access },
    )
    .get(`${surface.route}/reinstate`, (ctx) => confirmation.show(REINSTATE, ctx), { portal: surface.access })
    .post(`${surface.route}/reinstate`, (ctx) => confirmation.confirm(REINSTATE, ctx), { portal: surface.access })
    .get(`${surface.route}/renew`, (ctx) => confirmation.show(renew, ctx), { portal: surface.access })
    .post(`${surface.route}/renew`, (ctx) => confirmation.confirm(renew, ctx), { portal: surface.access })
    .get(
      `${surface.route}/change`,
      async ({ viewer, csrf, request, params, set }) => {
        const policy = await surface.find(db, viewer, keyOf(params));
        if (!policy) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_POLICY));
        const decision = surface.access === "admin" ? await changeDecisionView(db, policy, surface.base(policy), csrf) : null;
        if (decision) return page(request, shell(viewer, csrf, `Change to policy ${decision.policyName}`), <ChangeDecision {...decision} />);
        const form = await changeFormView(db, surface.canceller(viewer), policy, surface.base(policy), { csrf }, new Date());
        return page(request, shell(viewer, csrf, `Change policy ${form.policyName}`), <ChangeForm {...form} />);
      },
      { portal: surface.access },
    )
    .post(
      `${surface.route}/change`,
      async ({ viewer, csrf, request, params, body, set }) => {
        const policy = await surface.find(db, viewer, keyOf(params));
        if (!policy) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_POLICY));
        const values = formValues(body);
        const canceller = surface.canceller(viewer);
        const now = new Date();
        let problem: FormProblem | undefined;
        try {
          const changes = requestedChanges(policy, values);
          const reference = changeReferenceOf(values);
          const confirm = values.step === "confirm";
          // Confirmed again once its change applied: the form's details are the policy's own now.
          const applied = confirm && !Object.keys(changes).length && (await endorsementsOf(db, policy.id)).some((e) => e.reference === reference);
          if (applied) return redirectTo(request, set, surface.base(policy));
          if (!Object.keys(changes).length) throw new CommandError(400, "Change at least one detail: every value above is the policy's own");
          if (confirm) {
            await endorsePolicy(db, canceller, { policyId: policy.id }, { reference, addtnlFact: changes }, now);
            return redirectTo(request, set, surface.base(policy));
          }
        } catch (error) {
          problem = problemOf(error);
        }
        const form = await changeFormView(db, canceller, policy, surface.base(policy), { csrf, values, problem, preview: true }, now);
        if (form.problem || form.refusal) set.status = 400;
        return page(request, shell(viewer, csrf, `Change policy ${form.policyName}`), <ChangeForm {...form} />);
      },
      { portal: surface.access },
    )
    .post(
      `${surface.route}/cancel`,
      async ({ viewer, csrf, request, params, body, set }) => {
        const policy = await surface.find(db, viewer, keyOf(params));
        if (!policy) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_POLICY));
        const values = formValues(body);
        const canceller = surface.canceller(viewer);
        const now = new Date();
        try {
          const reason = asReason(values.reason);
          if (!reason) throw new CommandError(400, "seed.reason is required: choose why the policy is cancelled", "seed.reason");
          const effectiveDate = typedEffectiveDate(values.effectiveDate);
          const cancellation = { reference: changeReferenceOf(values), reason, effectiveDate, note: typedValue(values.note) };
          await cancelPolicy(db, canceller, { policyId: policy.id }, cancellation, now, "seed.note");
          return redirectTo(request, set, surface.base(policy));
        } catch (error) {
          set.status = error instanceof CommandError ? error.status : 500;
          const form = await cancelFormView(db, canceller, policy, surface.base(policy), { csrf, values, problem: problemOf(error) }, now);
          return page(request, shell(viewer, csrf, `Cancel policy ${form.policyName}`), <CancelForm {...form} />);
        }
      },
      { portal: surface.access },
    );
}

/** The operator's decision on a change waiting for review. */
function changeDecisionPages(deps: AppDeps) {
  const db = deps.database.db;
  const admin = SURFACES[1]!;
  const decide = async (approve: boolean, { viewer, csrf, request, params, body, set }: PageContext): Promise<string | JSX.Element> => {
    const policy = await admin.find(db, viewer, keyOf(params));
    if (!policy) return page(request, { title: "Not found", active: admin.active, viewer, csrf }, notFound(set, NO_POLICY));
    const note = typedValue(formValues(body).note);
    try {
      if (!approve && !note) throw new CommandError(400, "Say why the change is declined: the partner reads it", "note");
      await decideEndorsement(
        db,
        { actor: viewer, by: `admin:${viewer.email}` },
        policy.id,
        approve ? { approve: true } : { approve: false, note: note! },
        new Date(),
      );
      return redirectTo(request, set, admin.base(policy));
    } catch (error) {
      set.status = error instanceof CommandError ? error.status : 500;
      const view = await changeDecisionView(db, policy, admin.base(policy), csrf, problemOf(error));
      if (!view) return redirectTo(request, set, admin.base(policy));
      return page(request, { title: `Change to policy ${view.policyName}`, active: admin.active, viewer, csrf }, <ChangeDecision {...view} />);
    }
  };
  return new Elysia({ name: "admin-change-decisions" })
    .use(portalSession(deps))
    .post(`${admin.route}/change/approve`, (ctx) => decide(true, ctx), { portal: "admin" })
    .post(`${admin.route}/change/decline`, (ctx) => decide(false, ctx), { portal: "admin" });
}

/** Each surface's pages, and the operator's decisions on changes (typed as any Elysia: together their route types are more than TypeScript represents). */
export const lifecyclePortal = (deps: AppDeps): AnyElysia => {
  const plugins: AnyElysia[] = [...SURFACES.map((surface) => cancellationPages(deps, surface)), changeDecisionPages(deps)];
  return plugins.reduce((app, plugin) => app.use(plugin), new Elysia({ name: "lifecycle-pages" }) as AnyElysia);
};
