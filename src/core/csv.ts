/**
 * CSV as spreadsheets read it (RFC 4180): fields quoted when they hold a comma, a quote or a line
 * break, quotes doubled, CRLF between records. A cell a spreadsheet would run as a formula (it
 * starts with =, +, -, @, a tab or a carriage return) gets a leading apostrophe, so text a
 * partner's customer typed never runs in an operator's spreadsheet (OWASP "CSV injection").
 * Numbers are written as numbers: a negative amount is not text.
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  const text = FORMULA.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRecord = (values: readonly CsvValue[]): string => `${values.map(csvField).join(",")}\r\n`;
