import { Elysia } from "elysia";
import type { FormProblem } from "../../../views/portal/ui";
import { Premium, QuotePage } from "../../../views/quotes/quote";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { redirectTo } from "../../portal/kit";
import { formValuesWithFiles, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { quoteAndIssue } from "../policies/issuance";
import { issueSeedsFromForm } from "./model";
import { premiumPreview, productOf, quotePageView } from "./presenter";

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

  return new Elysia({ name: "portal-quotes" })
    .use(portalSession(deps))
    .get("/portal/quote", ({ viewer, csrf, request, query }) => render(request, viewer, csrf, { product: query.product, consumer: query.consumer }), {
      portal: "partner",
    })
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
          const policy = await quoteAndIssue(db, {
            actor: viewer,
            partnerId: viewer.partnerId,
            mode: viewer.mode,
            consumerParam: values.consumer ?? "",
            product,
            ...issueSeedsFromForm(product, values),
            now: new Date(),
            insurerDelayMs: deps.config.INSURER_DELAY_MS,
          });
          return redirectTo(request, set, `/portal/policies/${encodeURIComponent(policy.reference)}`);
        } catch (error) {
          set.status = 400;
          return render(request, viewer, csrf, values, error);
        }
      },
      { portal: "partner" },
    );
};
