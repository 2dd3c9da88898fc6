/**
 * A claim's letters as A4 PDFs (the discharge voucher, the rejection letter): a heading, the
 * figures as label and value, paragraphs wrapped to the page, in the certificates' embedded DejaVu
 * Sans (₦ and any name a partner sends). Laid out here once; each letter says only what it holds.
 */
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import { certificateFaces } from "../certificates";

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const INK = rgb(0.1, 0.12, 0.16);
const MUTED = rgb(0.38, 0.42, 0.48);

/** One part of a letter: a heading, label-and-value rows, paragraphs, in that order. */
interface LetterSection {
  heading?: string;
  rows?: readonly (readonly [label: string, value: string])[];
  paragraphs?: readonly string[];
}

export interface Letter {
  /** The PDF's title and the letter's first line. */
  title: string;
  /** Who writes: the insurer, printed at the top. */
  from: string;
  /** The date in words and the references under the title ("Claim CLM-…"). */
  subtitle: string;
  sections: readonly LetterSection[];
  /** A line of small print at the end. */
  footer?: string;
}

export async function renderLetter(letter: Letter): Promise<Uint8Array> {
  const faces = certificateFaces();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const regular = await doc.embedFont(faces.regular.bytes, { subset: true });
  const bold = await doc.embedFont(faces.bold.bytes, { subset: true });
  doc.setTitle(faces.regular.printable(letter.title), { showInWindowTitleBar: true });
  doc.setLanguage("en-NG");
  // Fixed dates: the same letter renders to the same bytes, whenever it is drawn.
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));

  let page: PDFPage = doc.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const width = A4.width - 2 * MARGIN;
  const printable = (font: PDFFont, value: string) => (font === bold ? faces.bold : faces.regular).printable(value);
  const newPage = () => {
    page = doc.addPage([A4.width, A4.height]);
    y = A4.height - MARGIN;
  };
  const down = (height: number) => {
    y -= height;
    if (y < MARGIN) newPage();
  };
  const draw = (value: string, x: number, font: PDFFont, size: number, color = INK) => page.drawText(printable(font, value), { x, y, size, font, color });
  /** Words wrapped to `room` points; a word longer than a line is cut where it must be. */
  const wrap = (value: string, font: PDFFont, size: number, room: number) => {
    const lines: string[] = [];
    let current = "";
    for (const word of printable(font, value).split(/\s+/).filter(Boolean)) {
      const tried = current ? `${current} ${word}` : word;
      if (font.widthOfTextAtSize(tried, size) <= room) current = tried;
      else {
        if (current) lines.push(current);
        let rest = word;
        while (font.widthOfTextAtSize(rest, size) > room && rest.length > 1) {
          let cut = rest.length - 1;
          while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > room) cut--;
          lines.push(rest.slice(0, cut));
          rest = rest.slice(cut);
        }
        current = rest;
      }
    }
    if (current) lines.push(current);
    return lines;
  };
  const paragraph = (value: string, font = regular, size = 10, x = MARGIN, room = width, color = INK) => {
    for (const line of wrap(value, font, size, room)) {
      draw(line, x, font, size, color);
      down(size + 4);
    }
  };

  paragraph(letter.from, bold, 11, MARGIN, width, MUTED);
  down(10);
  paragraph(letter.title, bold, 17);
  down(2);
  paragraph(letter.subtitle, regular, 10, MARGIN, width, MUTED);
  down(12);
  const labelRoom = 170;
  for (const section of letter.sections) {
    if (section.heading) {
      down(4);
      paragraph(section.heading, bold, 12);
      down(2);
    }
    for (const [label, value] of section.rows ?? []) {
      // A row is drawn in two columns from one top: it starts on a page with room for both.
      const needed = Math.max(wrap(label, regular, 10, labelRoom - 10).length, wrap(value, bold, 10, width - labelRoom).length) * 14;
      if (y - needed < MARGIN) newPage();
      const top = y;
      paragraph(label, regular, 10, MARGIN, labelRoom - 10, MUTED);
      const afterLabel = y;
      y = top;
      paragraph(value, bold, 10, MARGIN + labelRoom, width - labelRoom);
      y = Math.min(y, afterLabel) - 2;
    }
    for (const text of section.paragraphs ?? []) {
      paragraph(text);
      down(4);
    }
    down(8);
  }
  if (letter.footer) {
    down(8);
    paragraph(letter.footer, regular, 8, MARGIN, width, MUTED);
  }
  return doc.save();
}
