/** What the statement and rate pages show, built once for the partner's and the operator's pages. */
import type { ProductRatesProps, RateRow, StatementProps } from "../../../views/commissions/commissions";
import { day } from "../../../views/format";
import { csvRecord } from "../../core/csv";
import { CommandError } from "../../core/errors";
import { watTimestamp } from "../../core/time";
import { download } from "../../portal/kit";
import { inWords } from "../../portal/words";
import { productName } from "../../products";
import { currentWatMonth } from "../enrichment";
import { percentText, previousMonth, statementMonth } from "./model";
import { renderStatementPdf } from "./pdf";
import { type StatementReader, statementCsvRows, statementDays, statementFigures } from "./presenter";
import type { PartnerStatement, ProductRates } from "./service";

/** The statement's part of the page; `files` makes a download's link (".pdf" or ".csv") with the same choice of month and partner. */
export function statementPart(
  s: PartnerStatement,
  files: (extension: "pdf" | "csv") => string,
  reader: StatementReader,
): NonNullable<StatementProps["statement"]> {
  const { first, last } = statementDays(s);
  return {
    partnerName: s.partnerName,
    period: `${day(first)} to ${day(last)}`,
    ...statementFigures(s, reader),
    policiesWritten: s.policiesWritten,
    products: s.products.map((line) => ({ ...line, name: productName(line.productCode) })),
    pdfHref: files("pdf"),
    csvHref: files("csv"),
  };
}

const fileName = (s: PartnerStatement, extension: string) => `statement-${s.partnerName.replace(/[^\w-]+/g, "-").toLowerCase()}-${s.month}.${extension}`;

/** The statement as a download. */
export async function statementFile(s: PartnerStatement, extension: "pdf" | "csv", now: Date) {
  if (extension === "pdf") return { name: fileName(s, "pdf"), mime: "application/pdf", bytes: await renderStatementPdf(s, watTimestamp(now)) };
  // A byte-order mark so spreadsheets read UTF-8 (₦, names), as the list exports do.
  const text = `\uFEFF${statementCsvRows(s).map(csvRecord).join("")}`;
  return { name: fileName(s, "csv"), mime: "text/csv; charset=utf-8", bytes: new TextEncoder().encode(text) };
}

export const ratesHref = (code: string) => `/admin/commissions/${encodeURIComponent(code)}`;

export const rateRows = (rates: ProductRates[]): RateRow[] =>
  rates.map((r) => ({
    name: productName(r.productCode),
    href: ratesHref(r.productCode),
    rate: r.basisPoints === null ? null : percentText(r.basisPoints),
    overrides: r.overrides.map((o) => ({ partnerName: o.partnerName, rate: percentText(o.basisPoints) })),
  }));

export function productRatesProps(
  r: ProductRates,
  partners: readonly { value: string; label: string }[],
  csrf: string,
): Omit<ProductRatesProps, "done" | "refused"> {
  const href = ratesHref(r.productCode);
  return {
    name: productName(r.productCode),
    csrf,
    backHref: "/admin/commissions",
    action: href,
    partnerAction: `${href}/partners`,
    rate: r.basisPoints === null ? null : percentText(r.basisPoints),
    overrides: r.overrides.map((o) => ({
      partnerName: o.partnerName,
      rate: percentText(o.basisPoints),
      removeAction: `${href}/partners/${o.partnerId}/remove`,
    })),
    partners,
  };
}

/** The month a page asks for: the one given, else last month (the latest complete one). */
export const askedMonth = (raw: string | undefined, now: Date) => (raw?.trim() ? statementMonth(raw, now, "month") : previousMonth(currentWatMonth(now)));

/** A download of the statement, or the refusal in words with its status (a bad month, an unknown partner). */
export async function statementDownload(
  set: { status?: number | string },
  extension: "pdf" | "csv",
  load: (now: Date) => Promise<PartnerStatement>,
): Promise<Response | string> {
  try {
    const now = new Date();
    return download(await statementFile(await load(now), extension, now));
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    set.status = error.status;
    return inWords(error.message);
  }
}
