/**
 * The bordereaux' column layout, one definition for the preview, the CSV and the XLSX
 * (docs/reporting.md describes every column): a heading, what kind of cell it is, and its value.
 */
import { CLAIM_STATUS_TEXT } from "../../../views/claims/claims";
import { monthName } from "../../../views/format";
import { coverDays, watTimestamp } from "../../core/time";
import { isMonth } from "../../core/validation";
import { currentWatMonth } from "../enrichment";
import type { BordereauTransaction, ClaimRow, ClaimsBordereau, PremiumBordereau, PremiumRow } from "./service";

const TRANSACTION_TEXT: Record<BordereauTransaction, string> = { new: "New", cancellation: "Cancellation", change: "Change" };

/**
 * text: as written; day: a Nigerian date, YYYY-MM-DD; money: kobo, shown and exported as naira; count:
 * a whole number; days, hours: a duration in that unit; percent: a share (0 to 1), shown and exported
 * as a percentage.
 */
export type CellKind = "text" | "day" | "money" | "count" | "days" | "hours" | "percent";
type BordereauCellKind = "text" | "day" | "money";

interface BordereauColumn<Row> {
  heading: string;
  kind: BordereauCellKind;
  /** Text or a day for text and day columns, kobo for money. */
  value(row: Row): string | number | null;
  /** The totals row adds this column up (money columns only). */
  totalled?: boolean;
}

const watDay = (at: Date) => watTimestamp(at).slice(0, 10);

const PREMIUM_COLUMNS: readonly BordereauColumn<PremiumRow>[] = [
  { heading: "Partner", kind: "text", value: (r) => r.partnerName },
  { heading: "Policy reference", kind: "text", value: (r) => r.reference },
  { heading: "Policy number", kind: "text", value: (r) => r.policyNo },
  { heading: "Product", kind: "text", value: (r) => r.productName },
  { heading: "Insured", kind: "text", value: (r) => r.insuredName },
  { heading: "Cover start", kind: "day", value: (r) => coverDays(r.coverStart, r.coverEnd).firstDay },
  { heading: "Cover end", kind: "day", value: (r) => coverDays(r.coverStart, r.coverEnd).lastDay },
  { heading: "Transaction", kind: "text", value: (r) => TRANSACTION_TEXT[r.transaction] },
  { heading: "Booked on", kind: "day", value: (r) => watDay(r.bookedAt) },
  { heading: "Gross premium (NGN)", kind: "money", value: (r) => r.grossKobo, totalled: true },
  { heading: "Commission (NGN)", kind: "money", value: (r) => r.commissionKobo, totalled: true },
  { heading: "Net to insurer (NGN)", kind: "money", value: (r) => r.netKobo, totalled: true },
];

const CLAIM_COLUMNS: readonly BordereauColumn<ClaimRow>[] = [
  { heading: "Partner", kind: "text", value: (r) => r.partnerName },
  { heading: "Claim number", kind: "text", value: (r) => r.claimNo },
  { heading: "Policy reference", kind: "text", value: (r) => r.reference },
  { heading: "Policy number", kind: "text", value: (r) => r.policyNo },
  { heading: "Product", kind: "text", value: (r) => r.productName },
  { heading: "Claimant", kind: "text", value: (r) => r.claimantName },
  { heading: "Date of loss", kind: "day", value: (r) => r.lossDate },
  { heading: "Reported on", kind: "day", value: (r) => watDay(r.reportedAt) },
  { heading: "Status", kind: "text", value: (r) => CLAIM_STATUS_TEXT[r.status] ?? r.status },
  { heading: "Claimed (NGN)", kind: "money", value: (r) => r.claimedKobo, totalled: true },
  { heading: "Reserve (NGN)", kind: "money", value: (r) => r.reserveKobo, totalled: true },
  { heading: "Paid (NGN)", kind: "money", value: (r) => r.paidKobo, totalled: true },
];

/** The two bordereaux: what the picker offers, and each one's columns and file name. */
export type BordereauKind = "premium" | "claims";
export const BORDEREAU_TEXT: Record<BordereauKind, string> = { premium: "Premium bordereau", claims: "Claims bordereau" };

/** A table as the files hold it (and a page previews it): its columns, its rows' cells, and an optional totals row written last. */
export interface Sheet<Kind extends CellKind = CellKind> {
  title: string;
  /** The file's name without its extension, e.g. "premium-bordereau-ldwy-2026-11". */
  filename: string;
  /** The worksheet's name in a workbook (at most 31 characters); the file's name when absent. */
  sheetName?: string;
  columns: readonly { heading: string; kind: Kind }[];
  rows: (string | number | null)[][];
  totals?: (string | number | null)[];
}

/** A bordereau as the preview and the files show it: its columns, its rows' cells, and the totals row. */
export interface BordereauSheet extends Sheet<BordereauCellKind> {
  /** "Total" first, each totalled column's sum (kobo), blank elsewhere. */
  totals: (string | number | null)[];
}

function sheetOf<Row>(
  kind: BordereauKind,
  bordereau: { insurer: { code: string; name: string }; month: string; rows: Row[] },
  columns: readonly BordereauColumn<Row>[],
): BordereauSheet {
  const rows = bordereau.rows.map((row) => columns.map((column) => column.value(row)));
  const totals = columns.map((column, index) => (column.totalled ? rows.reduce((sum, row) => sum + (row[index] as number), 0) : index === 0 ? "Total" : null));
  return {
    title: `${BORDEREAU_TEXT[kind]}, ${bordereau.insurer.name}, ${monthName(bordereau.month)}`,
    filename: `${kind}-bordereau-${bordereau.insurer.code}-${bordereau.month}`,
    columns: columns.map(({ heading, kind }) => ({ heading, kind })),
    rows,
    totals,
  };
}

export const premiumSheet = (bordereau: PremiumBordereau): BordereauSheet => sheetOf("premium", bordereau, PREMIUM_COLUMNS);
export const claimsSheet = (bordereau: ClaimsBordereau): BordereauSheet => sheetOf("claims", bordereau, CLAIM_COLUMNS);

/** "November 2026" for 2026-11. */
const monthOption = (value: string) => ({ value, label: monthName(value) });

/** The picker's months: this month (Nigerian time) and the 23 before it, and an older one asked for by its address. */
export function monthOptions(now: Date, asked?: string): { value: string; label: string }[] {
  const [year, month] = currentWatMonth(now).split("-").map(Number) as [number, number];
  const recent = Array.from({ length: 24 }, (_, back) => {
    const index = year * 12 + (month - 1) - back;
    return monthOption(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`);
  });
  const valid = asked !== undefined && isMonth(asked);
  return valid && !recent.some((m) => m.value === asked) ? [...recent, monthOption(asked)] : recent;
}
