/** PDF certificate: the shared layout replayed with pdf-lib, in the embedded DejaVu Sans. */
import fontkit from "@pdf-lib/fontkit";
import {
  degrees,
  fill,
  PDFDocument,
  type PDFFont,
  PDFHexString,
  type PDFOperator,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
} from "pdf-lib";
import { certificateFaces, type Faces } from "./fonts";
import { darkRuns, layoutCertificate, type Op, type Rgb } from "./layout";
import { type CleanModel, SPECIMEN_TITLE, TITLE } from "./text";

type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];

/**
 * pdf-lib parses the TTF on every embedFont; handing it our already-parsed faces instead makes
 * each render reuse them (only the per-document subset is built anew).
 */
const cachedFontkit = (faces: Faces): Fontkit => ({
  create: (bytes: Uint8Array) => {
    if (bytes === faces.regular.bytes) return faces.regular.font;
    if (bytes === faces.bold.bytes) return faces.bold.font;
    return fontkit.create(bytes);
  },
});

const color = ([r, g, b]: Rgb) => rgb(r, g, b);

/**
 * OpenType features for pdf-lib's text encoding. pdf-lib keeps only the glyph ids of fontkit's
 * layout, never its positions, so kerning and mark positioning are pure cost (over half of a
 * render); ligatures are off so extracted and searched text has the letters as typed ("ffi").
 * Script shaping (e.g. Arabic joining forms) still applies.
 */
const SHAPING = { kern: false, mark: false, mkmk: false, liga: false, clig: false } as const;

// Link annotations carry the URL as bytes; only plain ASCII http(s) URLs are made clickable.
const LINKABLE = /^https?:\/\/[\x21-\x7e]+$/;
const asciiHex = (s: string) => Array.from(s, (c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");

function addLink(doc: PDFDocument, page: PDFPage, op: Extract<Op, { kind: "link" }>, height: number) {
  if (!LINKABLE.test(op.url)) return;
  const annot = doc.context.obj({
    Type: "Annot",
    Subtype: "Link",
    Rect: [op.x, height - op.y - op.h, op.x + op.w, height - op.y],
    Border: [0, 0, 0],
    A: { Type: "Action", S: "URI", URI: PDFHexString.of(asciiHex(op.url)) },
  });
  page.node.addAnnot(doc.context.register(annot));
}

function drawOp(doc: PDFDocument, page: PDFPage, op: Op, height: number, fonts: { regular: PDFFont; bold: PDFFont }) {
  switch (op.kind) {
    case "text":
      page.drawText(op.text, { x: op.x, y: height - op.y, size: op.size, font: op.bold ? fonts.bold : fonts.regular, color: color(op.color) });
      return;
    case "rect":
      page.drawRectangle({ x: op.x, y: height - op.y - op.h, width: op.w, height: op.h, color: color(op.color) });
      return;
    case "qr": {
      // Vector modules (crisp at any zoom): one path of rectangles, one per horizontal run of dark
      // modules, filled once — far lighter than a drawRectangle (with its own state) per module.
      const n = op.qr.size;
      const unit = op.size / (n + 8); // 4-module quiet zone each side
      const path: PDFOperator[] = [pushGraphicsState(), setFillingRgbColor(0, 0, 0)];
      for (const { row, start, length } of darkRuns(op.qr)) {
        const top = op.y + (row + 4) * unit;
        path.push(rectangle(op.x + (start + 4) * unit, height - top - unit, length * unit, unit));
      }
      page.pushOperators(...path, fill(), popGraphicsState());
      return;
    }
    case "link":
      addLink(doc, page, op, height);
      return;
    case "watermark": {
      const font = fonts.bold;
      const w = font.widthOfTextAtSize(op.text, op.size);
      const a = (op.angle * Math.PI) / 180;
      const [cos, sin] = [Math.cos(a), Math.sin(a)];
      // Start point so the rotated text is centred on (x, y): back half its width, down a third of its size.
      const cx = op.x;
      const cy = height - op.y;
      const x = cx - (w / 2) * cos + op.size * 0.35 * sin;
      const y = cy - (w / 2) * sin - op.size * 0.35 * cos;
      page.drawText(op.text, { x, y, size: op.size, font, color: color(op.color), rotate: degrees(op.angle), opacity: 0.16 });
      return;
    }
  }
}

export async function renderPdf(m: CleanModel): Promise<Uint8Array> {
  const faces = certificateFaces();
  const layout = layoutCertificate(m, 841.89);
  const doc = await PDFDocument.create();
  doc.registerFontkit(cachedFontkit(faces));
  // Subsets keep a certificate near 20 KB instead of embedding 1.4 MB of fonts.
  const fonts = {
    regular: await doc.embedFont(faces.regular.bytes, { subset: true, features: SHAPING }),
    bold: await doc.embedFont(faces.bold.bytes, { subset: true, features: SHAPING }),
  };
  const title = `${m.specimen ? `${SPECIMEN_TITLE}: ` : ""}${TITLE} ${m.policyNo}`.trim();
  doc.setTitle(title, { showInWindowTitleBar: true });
  doc.setSubject(m.specimen ? `${SPECIMEN_TITLE} — not a certificate of insurance` : `${m.productName} (${m.productCode})`);
  doc.setAuthor(m.insurerName);
  doc.setLanguage("en-NG");
  for (const p of layout.pages) {
    const page = doc.addPage([layout.width, p.height]);
    for (const op of p.ops) drawOp(doc, page, op, p.height, fonts);
  }
  return doc.save();
}
