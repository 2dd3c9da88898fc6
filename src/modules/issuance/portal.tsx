import { Elysia } from "elysia";
import { PolicyDetail, PolicyList, PolicyRows, PolicyStatusBlock } from "../../../views/policies/policies";
import { ConfirmStep } from "../../../views/portal/confirm";
import type { FormProblem } from "../../../views/portal/ui";
import { ConsumerPicker, Premium, QuotePage } from "../../../views/quotes/quote";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { CONFIRMED_FIELD, confirmation } from "../../portal/confirm";
import { csvDownload, csvOrRefusal } from "../../portal/export";
import { notFound, redirectTo } from "../../portal/kit";
import { listAnswer } from "../../portal/list";
import { formValuesWithFiles, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { consumerName, findConsumer } from "../consumers";
import type { ServiceFacts } from "../manifest";
import type { PolicyRecord } from "../policies";
import { findPolicyByReference, hasCertificate, listPolicies } from "../policies";
import { issueSeedsFromForm } from "../quotes";
import { walletBalance } from "../wallet";
import { quoteAndIssue, quoteAndIssuePreview } from "./issuance";
import {
  certificateDownload,
  POLICY_CSV_COLUMNS,
  partnerPolicyView,
  policyCsvRows,
  policyList,
  policyListFilters,
  policyRows,
  policyView,
  productOptions,
} from "./presenter";
import { consumerChoices, issueStep, premiumPreview, productOf, quotePageView } from "./quote-presenter";

const NOT_YOURS = "No policy with this reference on your account.";

/** Partner pages for policies: the filtered list, a detail that refreshes itself while pending, certificate downloads. */
export const policyPortal = (deps: AppDeps, { policyLifecycle }: ServiceFacts) => {
  const db = deps.database.db;
  const policyOf = async (partnerId: string, reference: string) => findPolicyByReference(db, partnerId, decodeURIComponent(reference));
  const hrefOf = (p: PolicyRecord) => `/portal/policies/${encodeURIComponent(p.reference)}`;
  return new Elysia({ name: "portal-policies" })
    .use(portalSession(deps))
    .get(
      "/portal/policies",
      (ctx) =>
        listAnswer(
          ctx,
          policyList(db, { partnerId: ctx.viewer.partnerId }, "/portal/policies", (items) => policyRows(db, items, hrefOf)),
          {
            shell: { title: "Policies", active: "policies", viewer: ctx.viewer, csrf: ctx.csrf },
            rows: (list) => <PolicyRows rows={list.rows} more={list.more} />,
            page: (list) => (
              <PolicyList
                title="Policies"
                action="/portal/policies"
                rows={list.rows}
                more={list.more}
                filters={list.values}
                count={list.count}
                problem={list.problem}
                products={productOptions()}
                exportHref={list.exportHref}
              />
            ),
          },
        ),
      { portal: "partner" },
    )
    .get(
      "/portal/policies.csv",
      ({ viewer, query, set }) =>
        csvOrRefusal(set, () => {
          const filters = policyListFilters({ partnerId: viewer.partnerId }, query);
          return csvDownload({
            filename: `policies-${watToday(new Date())}`,
            columns: POLICY_CSV_COLUMNS,
            page: (limit, cursor) => listPolicies(db, { partnerId: viewer.partnerId }, filters, { limit, cursor }),
            rows: (items) => policyCsvRows(db, items),
          });
        }),
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference",
      async ({ viewer, csrf, request, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (!policy) return page(request, { title: "Not found", active: "policies", viewer, csrf }, notFound(set, NOT_YOURS));
        const view = await partnerPolicyView(db, deps.config, policyLifecycle, policy, hrefOf(policy));
        return page(request, { title: view.title, active: "policies", viewer, csrf }, <PolicyDetail policy={view} />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference/status",
      async ({ viewer, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (!policy) return notFound(set, NOT_YOURS);
        return <PolicyStatusBlock policy={await policyView(db, deps.config, policyLifecycle, policy, hrefOf(policy), "")} />;
      },
      { portal: "partner" },
    )
    .get(
      "/portal/policies/:reference/certificate",
      async ({ viewer, params, set }) => {
        const policy = await policyOf(viewer.partnerId, params.reference);
        if (!policy || !hasCertificate(policy)) return notFound(set, NOT_YOURS);
        return certificateDownload(db, deps.config, policy, set);
      },
      { portal: "partner" },
    );
};

/**
 * A refusal whose fix is on the consumer's page (details a product needs): a link there, which
 * comes back to this quote with its consumer and product chosen once the details are saved.
 */
function withFix(problem: FormProblem, values: Record<string, string | undefined>): FormProblem {
  if (!/ lacks .*, required for /.test(problem.message) && !/^This consumer's details lack /.test(problem.message)) return problem;
  const consumer = values.consumer ?? "";
  if (!/^[0-9a-f]{32}$/.test(consumer)) return problem;
  const back = `/portal/quote?${new URLSearchParams({ consumer, product: values.product ?? "" })}`;
  return {
    ...problem,
    fix: { href: `/portal/consumers/${consumer}/edit?${new URLSearchParams({ return: back })}`, label: "Add the missing details on the consumer's page" },
  };
}

/** Partner page: pick a product, see the premium as the fields change, issue the policy. */
export const quotePortal = (deps: AppDeps) => {
  const db = deps.database.db;

  async function render(request: Request, viewer: PortalViewer, csrf: string, values: Record<string, string | undefined>, problem?: unknown) {
    const view = await quotePageView(db, viewer.partnerId, values);
    return page(
      request,
      { title: "Quote & issue", active: "quote", viewer, csrf },
      <QuotePage
        {...view}
        premium={premiumPreview(values)}
        problem={problem === undefined ? undefined : withFix(problemOf(problem), values)}
        mode={viewer.mode}
        csrf={csrf}
      />,
    );
  }

  /** The question before a live policy is issued and paid, carrying the form's values back (to issue, or to change them). */
  async function confirmIssue(
    request: Request,
    viewer: PortalViewer,
    csrf: string,
    values: Record<string, string | undefined>,
    priced: PolicyRecord,
    token: Record<string, string>,
  ) {
    const { _csrf: _token, [CONFIRMED_FIELD]: _earlier, ...carried } = values;
    const consumer = await findConsumer(db, viewer.partnerId, priced.consumerId);
    const insured = (consumer && consumerName(consumer.profile)) || "the consumer";
    return page(
      request,
      { title: "Confirm the policy", active: "quote", viewer, csrf },
      <ConfirmStep
        id="quote-page"
        level={1}
        {...issueStep(priced, insured, await walletBalance(db, viewer.partnerId))}
        action="/portal/quote/issue"
        csrf={csrf}
        fields={{ ...carried, ...token }}
        back={{ label: "Change the details", action: "/portal/quote/form" }}
      />,
    );
  }

  return (
    new Elysia({ name: "portal-quotes" })
      .use(portalSession(deps))
      .get(
        "/portal/quote",
        ({ viewer, csrf, request, query }) =>
          render(request, viewer, csrf, { product: query.product, consumer: query.consumer, q: typeof query.q === "string" ? query.q : undefined }),
        { portal: "partner" },
      )
      // The consumer search narrows the picker as it is typed (without JavaScript, the search is a GET of the page above).
      .get(
        "/portal/quote/consumers",
        async ({ viewer, query }) => {
          // A repeated parameter arrives as a list: only one value is a search (or a choice).
          const [consumer, search] = [query.consumer, query.q].map((v) => (typeof v === "string" ? v : undefined));
          return <ConsumerPicker choices={await consumerChoices(db, viewer.partnerId, consumer, search)} value={consumer} />;
        },
        { portal: "partner" },
      )
      .post("/portal/quote/form", async ({ viewer, csrf, request, body }) => render(request, viewer, csrf, await formValuesWithFiles(body)), {
        portal: "partner",
      })
      .post("/portal/quote/premium", async ({ body }) => <Premium premium={premiumPreview(await formValuesWithFiles(body))} />, { portal: "partner" })
      .post(
        "/portal/quote/issue",
        async ({ viewer, csrf, request, body, set }) => {
          const values = await formValuesWithFiles(body);
          const product = productOf(values.product);
          try {
            if (!product) throw new CommandError(400, "choose a product", "product");
            const input = {
              actor: viewer,
              partnerId: viewer.partnerId,
              mode: viewer.mode,
              consumerParam: values.consumer ?? "",
              product,
              ...issueSeedsFromForm(product, values),
              now: new Date(),
              insurerDelayMs: deps.config.INSURER_DELAY_MS,
            };
            // A live policy whose premium is paid now is issued only from its confirmation (a test one, or one the checks decline, moves no money).
            if (viewer.mode === "live") {
              const priced = await quoteAndIssuePreview(db, input);
              const step = confirmation(csrf, "policy.issue", priced.reference, priced.productCode, priced.consumerId, priced.premiumKobo);
              if (priced.status !== "d" && !step.given(values)) return confirmIssue(request, viewer, csrf, values, priced, step.fields);
            }
            const policy = await quoteAndIssue(db, input);
            return redirectTo(request, set, `/portal/policies/${encodeURIComponent(policy.reference)}`);
          } catch (error) {
            set.status = 400;
            return render(request, viewer, csrf, values, error);
          }
        },
        { portal: "partner" },
      )
  );
};
