import { Elysia } from "elysia";
import { ProductRatesPage, type ProductRatesProps, RatesPage, StatementPage } from "../../../views/commissions/commissions";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import type { AppDeps } from "../../http/context";
import { notFound, redirectTo } from "../../portal/kit";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { allProductCodes } from "../../products";
import { currentWatMonth } from "../enrichment";
import { partnerChoices } from "../partners";
import { rateFrom } from "./model";
import { askedMonth, productRatesProps, rateRows, ratesHref, statementDownload, statementPart } from "./pages";
import { changeRate, listRates, partnerStatement, type RateChange } from "./service";

const NO_PRODUCT = "No such product.";

const partnerOf = (raw: string | undefined) => {
  const id = normaliseUuid(raw?.trim());
  if (!id) throw new CommandError(400, "partner: choose a partner from the list", "partner");
  return id;
};

/** The operator's commission rates (audited) and any partner's monthly statement. */
export const commissionsAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string, title: string, active: string) => ({ title, active, viewer, csrf });

  async function productPage(code: string, csrf: string, extra: Pick<ProductRatesProps, "done" | "refused">) {
    const rates = (await listRates(db)).find((r) => r.productCode === code)!;
    return <ProductRatesPage {...productRatesProps(rates, await partnerChoices(db), csrf)} {...extra} />;
  }

  /** A rate form's post: the change, then back to the product's page; a refusal shows beside its field. */
  async function post(
    ctx: { viewer: PortalViewer; csrf: string; request: Request; set: { status?: number | string; headers: Record<string, unknown> } },
    code: string,
    form: "product" | "partner",
    values: Record<string, string | undefined>,
    change: () => RateChange,
    done: string,
  ) {
    const { viewer, csrf, request, set } = ctx;
    if (!allProductCodes().includes(code)) return page(request, shell(viewer, csrf, "Not found", "commissions"), notFound(set, NO_PRODUCT));
    try {
      await changeRate(db, viewer, change(), new Date());
      return redirectTo(request, set, `${ratesHref(code)}?done=${done}`);
    } catch (error) {
      set.status = error instanceof CommandError ? error.status : 400;
      const refused = { form, values, problem: problemOf(error) };
      return page(request, shell(viewer, csrf, "Commission rates", "commissions"), await productPage(code, csrf, { refused }));
    }
  }

  const DONE: Record<string, string> = { rate: "The rate is saved.", partner: "The partner's rate is saved.", removed: "The partner's own rate is removed." };

  return new Elysia({ name: "admin-commissions" })
    .use(portalSession(deps))
    .get(
      "/admin/commissions",
      async ({ viewer, csrf, request }) =>
        page(request, shell(viewer, csrf, "Commission rates", "commissions"), <RatesPage rows={rateRows(await listRates(db))} />),
      { portal: "admin" },
    )
    .get(
      "/admin/commissions/:code",
      async ({ viewer, csrf, request, params, query, set }) => {
        if (!allProductCodes().includes(params.code)) return page(request, shell(viewer, csrf, "Not found", "commissions"), notFound(set, NO_PRODUCT));
        return page(request, shell(viewer, csrf, "Commission rates", "commissions"), await productPage(params.code, csrf, { done: DONE[query.done ?? ""] }));
      },
      { portal: "admin" },
    )
    .post(
      "/admin/commissions/:code",
      (ctx) => {
        const values = formValues(ctx.body);
        return post(
          ctx,
          ctx.params.code,
          "product",
          values,
          () => ({ productCode: ctx.params.code, partnerId: null, basisPoints: rateFrom(values.rate, "rate") }),
          "rate",
        );
      },
      { portal: "admin" },
    )
    .post(
      "/admin/commissions/:code/partners",
      (ctx) => {
        const values = formValues(ctx.body);
        const change = () => ({ productCode: ctx.params.code, partnerId: partnerOf(values.partner), basisPoints: rateFrom(values.partnerRate, "partnerRate") });
        return post(ctx, ctx.params.code, "partner", values, change, "partner");
      },
      { portal: "admin" },
    )
    .post(
      "/admin/commissions/:code/partners/:partnerId/remove",
      (ctx) =>
        post(
          ctx,
          ctx.params.code,
          "partner",
          {},
          () => ({ productCode: ctx.params.code, partnerId: partnerOf(ctx.params.partnerId), basisPoints: null }),
          "removed",
        ),
      { portal: "admin" },
    )
    .get(
      "/admin/statements",
      async ({ viewer, csrf, request, query, set }) => {
        const now = new Date();
        const options = await partnerChoices(db);
        const props = { action: "/admin/statements", currentMonth: currentWatMonth(now), partners: { options, chosen: query.partner } };
        const title = shell(viewer, csrf, "Statements", "statements");
        try {
          const month = askedMonth(query.month, now);
          if (!query.partner) return page(request, title, <StatementPage {...props} month={month} />);
          const partnerId = partnerOf(query.partner);
          if (!options.some((o) => o.value === partnerId)) throw new CommandError(400, "partner: choose a partner from the list", "partner");
          const statement = await partnerStatement(db, partnerId, month);
          const files = (extension: "pdf" | "csv") => `/admin/statements.${extension}?${new URLSearchParams({ partner: partnerId, month })}`;
          return page(request, title, <StatementPage {...props} month={month} statement={statementPart(statement, files, "operator")} />);
        } catch (error) {
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, title, <StatementPage {...props} month={query.month ?? ""} problem={problemOf(error)} />);
        }
      },
      { portal: "admin" },
    )
    .get(
      "/admin/statements.pdf",
      ({ query, set }) => statementDownload(set, "pdf", (now) => partnerStatement(db, partnerOf(query.partner), askedMonth(query.month, now))),
      { portal: "admin" },
    )
    .get(
      "/admin/statements.csv",
      ({ query, set }) => statementDownload(set, "csv", (now) => partnerStatement(db, partnerOf(query.partner), askedMonth(query.month, now))),
      { portal: "admin" },
    );
};
