import { Elysia } from "elysia";
import { Premium, QuotePage } from "../../../views/quotes/quote";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { formValuesWithFiles, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { findProduct, type Product } from "../../products";
import { policySeedFromForm, seedFromForm } from "../../products/forms";
import { recordAudit } from "../audit/service";
import { consumerName } from "../consumers/presenter";
import { findConsumer, listConsumers, wireConsumerId } from "../consumers/service";
import { productOptions } from "../policies/presenter";
import { issuePolicy } from "../policies/service";
import { discardQuote, quotePremium } from "./service";

const productOf = (code: string | undefined): Product | undefined => {
  if (!code) return undefined;
  try {
    return findProduct(code);
  } catch {
    return undefined;
  }
};

/** Quote fields the policy form repeats (travel must match its quote): carried over when left blank. */
function withQuoteValues(values: Record<string, string | undefined>) {
  const carried = { ...values };
  for (const [name, value] of Object.entries(values)) {
    const policyName = `addtnlFact.${name}`;
    if (value && !name.includes(".") && name !== "insrncDrtn" && carried[policyName] === undefined) carried[policyName] = value;
  }
  return carried;
}

/** Partner page: pick a product, see the premium as the fields change, issue the policy. */
export const quotePortal = (deps: AppDeps) => {
  const db = deps.database.db;

  async function render(
    request: Request,
    viewer: PortalViewer,
    csrf: string,
    values: Record<string, string | undefined>,
    extra: { problem?: ReturnType<typeof problemOf>; premium?: Parameters<typeof Premium>[0]["premium"] } = {},
  ) {
    const product = productOf(values.product);
    const forms = product?.family.forms(product.type);
    // The quote's inputs serve the policy too where both name the same field (insrncDrtn, the vehicle's value…):
    // withQuoteValues carries them over.
    const quotePaths = new Set(forms?.quote.flatMap((e) => [e.path, `addtnlFact.${e.path}`]));
    const recent = (await listConsumers(db, { partnerId: viewer.partnerId }, { limit: 100 })).items;
    const chosenId = values.consumer ? normaliseUuid(values.consumer) : null;
    const chosen = chosenId && !recent.some((c) => c.id === chosenId) ? await findConsumer(db, viewer.partnerId, chosenId) : null;
    const consumers = chosen ? [chosen, ...recent] : recent;
    return page(
      request,
      { title: "Quote & issue", active: "quote", viewer, csrf },
      <QuotePage
        products={productOptions()}
        product={product?.code}
        quoteEntries={forms?.quote ?? []}
        policyEntries={forms?.policy.filter((e) => !quotePaths.has(e.path)) ?? []}
        values={{ id: crypto.randomUUID(), ...values }}
        premium={extra.premium}
        consumers={consumers.map((c) => ({
          wireId: wireConsumerId(c.id),
          name: `${consumerName(c.profile) || "(no name)"}${c.profile.eMail ? ` · ${c.profile.eMail}` : ""}`,
        }))}
        problem={extra.problem}
        mode={viewer.mode}
        csrf={csrf}
      />,
    );
  }

  /** The premium by the product's own rule, without storing a quote (only issuing does). */
  function preview(values: Record<string, string | undefined>) {
    const product = productOf(values.product);
    if (!product) return undefined;
    try {
      return { kobo: product.family.quote(product.type, seedFromForm(product.family.forms(product.type).quote, values)).premiumKobo };
    } catch (error) {
      return { problem: problemOf(error) };
    }
  }

  return new Elysia({ name: "portal-quotes" })
    .use(portalSession(deps))
    .get(
      "/portal/quote",
      ({ viewer, csrf, request, query }) => {
        const values = { product: query.product, consumer: query.consumer };
        return render(request, viewer, csrf, values, { premium: preview(values) });
      },
      { portal: "partner" },
    )
    .post(
      "/portal/quote/form",
      async ({ viewer, csrf, request, body }) => {
        const values = await formValuesWithFiles(body);
        return render(request, viewer, csrf, values, { premium: preview(values) });
      },
      { portal: "partner" },
    )
    .post("/portal/quote/premium", async ({ body }) => <Premium premium={preview(await formValuesWithFiles(body))} />, { portal: "partner" })
    .post(
      "/portal/quote/issue",
      async ({ viewer, csrf, request, body, set }) => {
        const values = await formValuesWithFiles(body);
        const product = productOf(values.product);
        try {
          if (!product) throw new CommandError(400, "choose a product", "product");
          const forms = product.family.forms(product.type);
          const now = new Date();
          // The quote the policy is compared against (spec 2.4: every quote is stored).
          const quote = await quotePremium(db, viewer.partnerId, product.code, seedFromForm(forms.quote, values), now);
          let result: Awaited<ReturnType<typeof issuePolicy>>;
          try {
            const productSeed = policySeedFromForm(forms, withQuoteValues(values));
            const [ctgry, type, pckg] = product.code.split("-");
            const addtnlFact = {
              ...(productSeed.addtnlFact as Record<string, unknown>),
              ...(values.webHook?.trim() ? { webHook: values.webHook.trim() } : {}),
            };
            result = await issuePolicy(db, {
              partnerId: viewer.partnerId,
              mode: viewer.mode,
              consumerParam: values.consumer ?? "",
              seed: { ctgry, type, pckg, id: values.id?.trim() ?? "", ...productSeed, addtnlFact },
              now,
              insurerDelayMs: deps.config.INSURER_DELAY_MS,
              // In the issuing transaction: a page showing a refusal never hides an issued policy.
              within: (tx, issued) =>
                recordAudit(
                  tx,
                  viewer,
                  { action: "policy.issue", subject: issued.reference, details: { productCode: issued.productCode, mode: issued.mode, status: issued.status } },
                  now,
                ),
            });
          } catch (error) {
            // The form quotes and issues in one step: a refused issuance takes its quote back, so a refusal stores nothing.
            await discardQuote(db, viewer.partnerId, quote.id);
            throw error;
          }
          const { policy } = result;
          const location = `/portal/policies/${encodeURIComponent(policy.reference)}`;
          if (request.headers.get("hx-request")) set.headers["hx-redirect"] = location;
          else {
            set.headers.location = location;
            set.status = 303;
          }
          return "";
        } catch (error) {
          set.status = 400;
          return render(request, viewer, csrf, values, { problem: problemOf(error), premium: preview(values) });
        }
      },
      { portal: "partner" },
    );
};
