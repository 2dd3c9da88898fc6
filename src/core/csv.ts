/**
 * CSV as spreadsheets read it (RFC 4180): fields quoted when they hold a comma, a quote or a line
 * break, quotes doubled, CRLF between records. A cell a spreadsheet would run as a formula (it
 * starts with =, +, -, @, a tab or a carriage return) gets a leading apostrophe, so text a
 * partner's customer typed never runs in an operator's spreadsheet (OWASP "CSV injection").
 * A plain signed number ("+2348031234567", "-1500.50") is no formula that could do anything: a
 * spreadsheet reads it as the number it is, so it is written as it is, without an apostrophe that
 * spreadsheets would show literally. Numbers are written as numbers: a negative amount is not text.
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA = /^[=+\-@\t\r]/;
/** A sign, digits and at most one decimal point, nothing else: a number, never a formula. */
const SIGNED_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "yes" : "no";
  const text = FORMULA.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRecord = (values: readonly CsvValue[]): string => `${values.map(csvField).join(",")}\r\n`;
