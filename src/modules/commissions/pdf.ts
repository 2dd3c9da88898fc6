/** The statement as a one-page-per-section A4 PDF, drawn in the certificates' embedded DejaVu Sans (₦ and any partner name). */
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import type { StatementFigure } from "../../../views/commissions/commissions";
import { formatNaira } from "../../core/money";
import { productName } from "../../products";
import { certificateFaces } from "../certificates";
import { statementDays, statementFigures } from "./presenter";
import type { PartnerStatement } from "./service";

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.38, 0.42, 0.48);

export async function renderStatementPdf(s: PartnerStatement, generatedAt: string): Promise<Uint8Array> {
  const faces = certificateFaces();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const regular = await doc.embedFont(faces.regular.bytes, { subset: true });
  const bold = await doc.embedFont(faces.bold.bytes, { subset: true });
  const { first, last } = statementDays(s);
  doc.setTitle(`Statement ${s.month}: ${faces.regular.printable(s.partnerName)}`, { showInWindowTitleBar: true });
  doc.setLanguage("en-NG");

  let page: PDFPage = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const text = (value: string, x: number, options: { font?: PDFFont; size?: number; color?: typeof INK; right?: boolean } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? 10;
    const printable = (font === bold ? faces.bold : faces.regular).printable(value);
    const width = font.widthOfTextAtSize(printable, size);
    page.drawText(printable, { x: options.right ? x - width : x, y, size, font, color: options.color ?? INK });
  };
  const line = (height = 16) => {
    y -= height;
    if (y < MARGIN) {
      page = doc.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
  };
  const right = A4.width - MARGIN;

  text("Monthly statement", MARGIN, { font: bold, size: 18 });
  line(24);
  text(s.partnerName, MARGIN, { size: 12 });
  line(16);
  text(`${first} to ${last} (Nigerian time) · drawn ${generatedAt}`, MARGIN, { color: MUTED });
  line(28);

  const section = (title: string, figures: StatementFigure[]) => {
    text(title, MARGIN, { font: bold, size: 12 });
    line(20);
    for (const figure of figures) {
      const font = figure.total ? bold : regular;
      text(figure.label, MARGIN, { font });
      text(formatNaira(figure.kobo), right, { font, right: true });
      if (figure.note) {
        line(12);
        text(figure.note, MARGIN + 8, { size: 8, color: MUTED });
      }
      line(18);
    }
    line(10);
  };
  const { due, wallet } = statementFigures(s);
  section("Net due", due);
  section("Wallet", wallet);

  text(`Policies written: ${s.policiesWritten}`, MARGIN, { font: bold, size: 12 });
  line(20);
  const columns = [MARGIN, 300, 380, 460, right] as const;
  text("Product", columns[0], { size: 8, color: MUTED });
  text("Policies", columns[1], { size: 8, color: MUTED });
  text("Premiums", columns[2] + 60, { size: 8, color: MUTED, right: true });
  text("Refunded", columns[3] + 50, { size: 8, color: MUTED, right: true });
  text("Commission (net)", right, { size: 8, color: MUTED, right: true });
  line(14);
  for (const p of s.products) {
    text(productName(p.productCode), columns[0], { size: 9 });
    text(String(p.policiesWritten), columns[1], { size: 9 });
    text(formatNaira(p.premiumsKobo), columns[2] + 60, { size: 9, right: true });
    text(formatNaira(p.refundsKobo), columns[3] + 50, { size: 9, right: true });
    text(formatNaira(p.commissionKobo - p.commissionReversedKobo), right, { size: 9, right: true });
    line(14);
  }
  if (!s.products.length) text("No live policies in the month.", MARGIN, { size: 9, color: MUTED });
  return doc.save();
}
