/**
 * Text hygiene for certificates: every value printed on a certificate comes through here first, so
 * no input (control characters, lone surrogates, direction overrides, huge strings) can break a
 * document or make it read differently from what is stored.
 */
import type { CertificateModel } from "./model";

/** Caps, in code points. A certificate line is never legitimately longer; the caps bound layout work. */
export const LIMITS = { field: 300, label: 80, value: 400, url: 1000, printedRows: 40 } as const;

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

// C0/C1 controls and line/paragraph separators become spaces: a certificate value is one line.
const CONTROLS = /[\p{Cc}\u2028\u2029]/gu;
// Explicit direction controls can make printed text read differently from the stored value.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// Not characters in XML 1.0 (DOCX) nor printable anywhere.
const NON_CHARACTERS = /[\uFFFE\uFFFF]/g;

const asString = (value: unknown): string => {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  try {
    return String(value);
  } catch {
    return "";
  }
};

/** Split into user-perceived characters, so cutting never separates a letter from its accents. */
export const splitGraphemes = (text: string): string[] => Array.from(graphemes.segment(text), (s) => s.segment);

/** Cuts to at most `max` code points on a grapheme boundary, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if ([...text].length <= max) return text;
  let out = "";
  let used = 0;
  for (const g of splitGraphemes(text)) {
    const n = [...g].length;
    if (used + n > max - 1) break;
    out += g;
    used += n;
  }
  return `${out.trimEnd()}…`;
}

/** One printable line: well-formed, NFC, no controls, single spaces, capped. */
export function cleanText(value: unknown, max: number = LIMITS.field): string {
  const text = asString(value)
    .toWellFormed()
    .normalize("NFC")
    .replace(CONTROLS, " ")
    .replace(BIDI_CONTROLS, "")
    .replace(NON_CHARACTERS, "\uFFFD")
    .replace(/\s+/gu, " ")
    .trim();
  return truncate(text, max);
}

export interface CleanModel {
  specimen: boolean;
  insurerName: string;
  policyNo: string;
  productName: string;
  productCode: string;
  insuredName: string;
  partnerName: string;
  coverStart: string;
  coverEnd: string;
  premium: string;
  issuedAt: string;
  printed: (readonly [label: string, value: string])[];
  verifyUrl: string;
  status: string;
  version: string;
}

/** The model with every string cleaned and the printed list capped (the overflow is said, not hidden). */
export function cleanModel(model: CertificateModel): CleanModel {
  const rows = Array.isArray(model.printed) ? model.printed : [];
  const printed = rows
    .slice(0, LIMITS.printedRows)
    .map((row): readonly [string, string] => [cleanText(row?.[0], LIMITS.label), cleanText(row?.[1], LIMITS.value)]);
  if (rows.length > LIMITS.printedRows) {
    printed.push(["…", `${rows.length - LIMITS.printedRows} more lines not shown; see the policy record`]);
  }
  return {
    specimen: model.specimen === true,
    insurerName: cleanText(model.insurerName),
    policyNo: cleanText(model.policyNo),
    productName: cleanText(model.productName),
    productCode: cleanText(model.productCode),
    insuredName: cleanText(model.insuredName),
    partnerName: cleanText(model.partnerName),
    coverStart: cleanText(model.coverStart),
    coverEnd: cleanText(model.coverEnd),
    premium: cleanText(model.premium),
    issuedAt: cleanText(model.issuedAt),
    printed,
    // Spaces never belong in a URL; dropping them keeps the QR code and the printed text identical.
    verifyUrl: cleanText(model.verifyUrl, LIMITS.url).replace(/ /g, ""),
    status: cleanText(model.status ?? ""),
    version: cleanText(model.version ?? ""),
  };
}

export const SPECIMEN_TITLE = "SPECIMEN — TEST MODE";
export const SPECIMEN_NOTE = "Made in test mode: this is not a certificate of insurance and no cover exists.";
export const TITLE = "CERTIFICATE OF INSURANCE";
export const EMPTY = "—";

/** The label/value rows every format prints, in order; `strong` marks the policy number. */
export function certificateRows(m: CleanModel): { label: string; value: string; strong?: boolean }[] {
  const period = m.coverStart || m.coverEnd ? `${m.coverStart || EMPTY} to ${m.coverEnd || EMPTY}` : "";
  return [
    ...(m.status ? [{ label: "Status", value: m.status, strong: true }] : []),
    { label: "Policy number", value: m.policyNo, strong: true },
    { label: "Insured", value: m.insuredName },
    { label: "Product", value: m.productName },
    { label: "Product code", value: m.productCode },
    { label: "Sold by", value: m.partnerName },
    { label: "Cover period", value: period },
    { label: "Premium", value: m.premium },
    { label: "Issued", value: m.issuedAt },
    ...(m.version ? [{ label: "Version", value: m.version }] : []),
  ];
}

/** Plain-text summary of the certificate (embedded in the JPG, whose pixels cannot be searched). */
export function summaryText(m: CleanModel): string {
  const lines = [
    ...(m.specimen ? [`${SPECIMEN_TITLE}. ${SPECIMEN_NOTE}`] : []),
    `${TITLE}: ${m.insurerName}`,
    ...certificateRows(m).map((r) => `${r.label}: ${r.value || EMPTY}`),
    ...m.printed.map(([label, value]) => `${label || EMPTY}: ${value || EMPTY}`),
    `Verify: ${m.verifyUrl}`,
  ];
  return lines.join("\n");
}

/**
 * Greedy word wrap to `maxWidth`, breaking over-long words between graphemes; more than `maxLines`
 * lines end in an ellipsis. `measure` gives a string's width in the caller's units.
 */
export function wrapText(text: string, maxWidth: number, measure: (s: string) => number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (lines.length > maxLines) break; // enough to know it overflows
    const candidate = line ? `${line} ${word}` : word;
    if (measure(candidate) <= maxWidth) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = "";
    if (measure(word) <= maxWidth) {
      line = word;
      continue;
    }
    for (const g of splitGraphemes(word)) {
      if (line && measure(line + g) > maxWidth) {
        lines.push(line);
        line = "";
      }
      line += g;
    }
  }
  if (line) lines.push(line);
  if (lines.length === 0) return [""];
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = splitGraphemes(kept[maxLines - 1] ?? "");
  while (last.length > 0 && measure(`${last.join("")}…`) > maxWidth) last = last.slice(0, -1);
  kept[maxLines - 1] = `${last.join("").trimEnd()}…`;
  return kept;
}
