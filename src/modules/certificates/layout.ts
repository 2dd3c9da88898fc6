/**
 * One page layout for the two drawn formats (PDF and JPG): the certificate is laid out once, in
 * points on A4, into a list of drawing operations that each renderer only replays. So both look
 * the same and wrapping/truncation is decided in one place.
 */
import { create as createQr } from "qrcode";
import { certificateFaces, type Face } from "./fonts";
import { type CleanModel, certificateRows, EMPTY, SPECIMEN_NOTE, SPECIMEN_TITLE, TITLE, wrapText } from "./text";

export type Rgb = readonly [r: number, g: number, b: number];

const COLORS = {
  ink: [0.1, 0.1, 0.12],
  muted: [0.38, 0.4, 0.44],
  navy: [0.09, 0.2, 0.37],
  rule: [0.82, 0.84, 0.87],
  link: [0.05, 0.3, 0.65],
  red: [0.72, 0.05, 0.1],
  white: [1, 1, 1],
} as const satisfies Record<string, Rgb>;

/** A QR symbol: `size` modules a side, `dark(row, col)`. */
interface QrMatrix {
  size: number;
  dark(row: number, col: number): boolean;
}

/** The horizontal runs of dark modules, row by row: each is drawn as one rectangle. */
export function* darkRuns(qr: QrMatrix): Generator<{ row: number; start: number; length: number }> {
  const n = qr.size;
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; ) {
      if (!qr.dark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < n && qr.dark(row, col)) col++;
      yield { row, start, length: col - start };
    }
  }
}

/** Coordinates are points from the page's top-left; a text's `y` is its baseline. */
export type Op =
  | { kind: "text"; x: number; y: number; text: string; size: number; bold: boolean; color: Rgb }
  | { kind: "rect"; x: number; y: number; w: number; h: number; color: Rgb }
  | { kind: "qr"; x: number; y: number; size: number; qr: QrMatrix }
  | { kind: "link"; x: number; y: number; w: number; h: number; url: string }
  /** Rotated translucent text centred on (x, y), drawn over the page. */
  | { kind: "watermark"; x: number; y: number; text: string; size: number; angle: number; color: Rgb };

interface Page {
  height: number;
  ops: Op[];
}

export interface Layout {
  width: number;
  pages: Page[];
}

export const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = 42;
const FOOTER = 28; // reserved at each page's foot
const LEADING = 1.35;
const LABEL_WIDTH = 128;
const GAP = 12;
const QR_SIZE = 118; // points, quiet zone included (≈ 4.2 cm: scannable from a phone)

/** Builds the QR matrix for the verification URL (error correction M: survives print wear). */
function verifyQr(url: string): QrMatrix | undefined {
  if (!url) return undefined;
  try {
    const { modules } = createQr(url, { errorCorrectionLevel: "M" });
    return { size: modules.size, dark: (row, col) => modules.get(row, col) === 1 };
  } catch {
    return undefined; // too long to encode: the URL is still printed as text
  }
}

/**
 * Lays out the certificate. `pageHeight` undefined means one page as tall as the content needs
 * (the JPG); otherwise content flows onto further pages of that height (the PDF).
 */
export function layoutCertificate(m: CleanModel, pageHeight?: number): Layout {
  const { regular, bold } = certificateFaces();
  const width = A4.width;
  const content = width - 2 * MARGIN;
  const pages: Page[] = [];
  let ops: Op[] = [];
  let y = MARGIN;

  const newPage = () => {
    if (pageHeight !== undefined) pages.push({ height: pageHeight, ops });
    ops = [];
    y = MARGIN;
  };
  /** Starts a new page when `h` more points do not fit on this one (fixed-height pages only). */
  const ensure = (h: number) => {
    if (pageHeight !== undefined && y + h > pageHeight - MARGIN - FOOTER && y > MARGIN) newPage();
  };
  const face = (isBold: boolean): Face => (isBold ? bold : regular);
  const lines = (text: string, size: number, isBold: boolean, maxWidth: number, maxLines: number) => {
    const f = face(isBold);
    return wrapText(f.printable(text), maxWidth, (s) => f.width(s, size), maxLines);
  };
  const text = (x: number, baseline: number, t: string, size: number, isBold: boolean, color: Rgb) => {
    if (t) ops.push({ kind: "text", x, y: baseline, text: t, size, bold: isBold, color });
  };
  /** A wrapped paragraph at the flow position. */
  const paragraph = (t: string, size: number, isBold: boolean, color: Rgb, maxLines: number, after: number) => {
    for (const line of lines(t, size, isBold, content, maxLines)) {
      ensure(size * LEADING);
      text(MARGIN, y + size, line, size, isBold, color);
      y += size * LEADING;
    }
    y += after;
  };

  // Specimen banner first, so nobody reads a test document as real cover.
  if (m.specimen) {
    const size = 18;
    const w = bold.width(SPECIMEN_TITLE, size);
    ops.push({ kind: "rect", x: MARGIN, y, w: content, h: 34, color: COLORS.red });
    text(MARGIN + (content - w) / 2, y + 23.5, SPECIMEN_TITLE, size, true, COLORS.white);
    y += 34 + 6;
    paragraph(SPECIMEN_NOTE, 10, true, COLORS.red, 2, 8);
  }

  paragraph(m.insurerName || EMPTY, 20, true, COLORS.navy, 3, 2);
  paragraph(TITLE, 11, true, COLORS.muted, 1, 4);
  ops.push({ kind: "rect", x: MARGIN, y, w: content, h: 1.5, color: COLORS.navy });
  y += 12;

  /** A label/value row; long values wrap (up to `maxLines`) beside the label. */
  const row = (label: string, value: string, strong: boolean, maxLines: number) => {
    const labelSize = 9;
    const valueSize = strong ? 12 : 11;
    const labelLines = lines(label, labelSize, false, LABEL_WIDTH, 3);
    const valueLines = lines(value || EMPTY, valueSize, strong, content - LABEL_WIDTH - GAP, maxLines);
    const h = Math.max(labelLines.length * labelSize * LEADING, valueLines.length * valueSize * LEADING) + 8;
    ensure(h);
    for (const [i, l] of labelLines.entries()) text(MARGIN, y + valueSize + i * labelSize * LEADING, l, labelSize, false, COLORS.muted);
    for (const [i, l] of valueLines.entries()) text(MARGIN + LABEL_WIDTH + GAP, y + valueSize + i * valueSize * LEADING, l, valueSize, strong, COLORS.ink);
    y += h;
    ops.push({ kind: "rect", x: MARGIN, y: y - 4, w: content, h: 0.5, color: COLORS.rule });
  };

  for (const r of certificateRows(m)) row(r.label, r.value, r.strong === true, 4);

  if (m.printed.length > 0) {
    y += 10;
    ensure(40);
    paragraph("Particulars", 12, true, COLORS.navy, 1, 4);
    for (const [label, value] of m.printed) row(label || EMPTY, value, false, 6);
  }

  // Verification: the QR code on the left, the same URL as text on the right.
  y += 14;
  const qr = verifyQr(m.verifyUrl);
  const textX = MARGIN + QR_SIZE + 16;
  const textWidth = content - QR_SIZE - 16;
  const urlLines = lines(m.verifyUrl || EMPTY, 10, false, textWidth, 8);
  const blockHeight = Math.max(QR_SIZE, 50 + urlLines.length * 10 * LEADING);
  ensure(blockHeight);
  const top = y;
  if (qr) ops.push({ kind: "qr", x: MARGIN, y: top, size: QR_SIZE, qr });
  let ty = top + 14;
  text(textX, ty + 12, "Verify this certificate", 12, true, COLORS.navy);
  ty += 12 * LEADING + 4;
  text(textX, ty + 9, "Scan the code or open this address:", 9, false, COLORS.muted);
  ty += 9 * LEADING + 4;
  const urlTop = ty;
  for (const l of urlLines) {
    text(textX, ty + 10, l, 10, false, COLORS.link);
    ty += 10 * LEADING;
  }
  if (m.verifyUrl) {
    ops.push({ kind: "link", x: MARGIN, y: top, w: QR_SIZE, h: QR_SIZE, url: m.verifyUrl });
    ops.push({ kind: "link", x: textX, y: urlTop, w: textWidth, h: ty - urlTop, url: m.verifyUrl });
  }
  y = top + blockHeight + 10;

  // Last page: close it. Tall single pages (JPG) keep at least A4 proportions.
  const finalHeight = pageHeight ?? Math.max(A4.height, y + MARGIN + FOOTER);
  pages.push({ height: finalHeight, ops });

  // Every page says what it is: footer, and for specimens a watermark across the page.
  pages.forEach((page, i) => {
    const footer = m.specimen ? `${SPECIMEN_TITLE} · not valid as evidence of insurance` : `${TITLE} · ${m.policyNo || EMPTY} · ${m.insurerName || EMPTY}`;
    const pageNo = pages.length > 1 ? ` · page ${i + 1} of ${pages.length}` : "";
    const footerText = lines(footer + pageNo, 8, m.specimen, content, 1)[0] ?? "";
    page.ops.push({
      kind: "text",
      x: MARGIN,
      y: page.height - MARGIN + 8,
      text: footerText,
      size: 8,
      bold: m.specimen,
      color: m.specimen ? COLORS.red : COLORS.muted,
    });
    if (m.specimen) {
      // One diagonal mark per A4-height band, so tall pages are covered all the way down.
      const bands = Math.max(1, Math.round(page.height / A4.height));
      const angle = (Math.atan2(A4.height, width) * 180) / Math.PI;
      const size = Math.min(64, (Math.hypot(width, A4.height) * 0.75) / (bold.width(SPECIMEN_TITLE, 1) || 1));
      for (let b = 0; b < bands; b++) {
        page.ops.push({ kind: "watermark", x: width / 2, y: ((b + 0.5) * page.height) / bands, text: SPECIMEN_TITLE, size, angle, color: COLORS.red });
      }
    }
  });

  return { width, pages };
}
