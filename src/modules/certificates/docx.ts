/**
 * DOCX certificate with the `docx` package. Word lays the text out itself (and finds fonts for any
 * script), so this builds structure, not positions: header, specimen banner, a details table, the
 * printed particulars, and the verification block with the QR code as a PNG.
 */
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  Footer,
  Header,
  ImageRun,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableLayoutType,
  TableRow,
  TextRun,
  VerticalAlignTable,
  WidthType,
} from "docx";
import { toBuffer as qrPng } from "qrcode";
import { type CleanModel, certificateRows, EMPTY, SPECIMEN_NOTE, SPECIMEN_TITLE, TITLE } from "./text";

const NAVY = "17335E";
const MUTED = "61666F";
const RED = "B80D1A";

// A4 in twips, 1.8 cm margins: the content width the fixed tables are cut to.
const PAGE = { width: 11906, height: 16838, margin: 1020 } as const;
const CONTENT = PAGE.width - 2 * PAGE.margin;
const LABEL_COLUMN = 2600;
const QR_PX = 150; // shown size, 96 px to the inch (≈ 4 cm)

// Hyperlink targets go into the package's relationships; only plain ASCII http(s) URLs become links.
const LINKABLE = /^https?:\/\/[\x21-\x7e]+$/;

const NONE = { style: BorderStyle.NONE, size: 0, color: "FFFFFF" } as const;
const NO_BORDERS = { top: NONE, bottom: NONE, left: NONE, right: NONE, insideHorizontal: NONE, insideVertical: NONE };
const RULE = { style: BorderStyle.SINGLE, size: 4, color: "D1D6DE" } as const;

const cell = (width: number, children: Paragraph[]) =>
  new TableCell({
    width: { size: width, type: WidthType.DXA },
    borders: { top: NONE, left: NONE, right: NONE, bottom: RULE },
    margins: { top: 60, bottom: 60 },
    children,
  });

/** Label/value rows in a fixed-layout table, so a very long value wraps inside its column. */
function detailsTable(rows: { label: string; value: string; strong?: boolean }[]): Table {
  return new Table({
    layout: TableLayoutType.FIXED,
    width: { size: CONTENT, type: WidthType.DXA },
    columnWidths: [LABEL_COLUMN, CONTENT - LABEL_COLUMN],
    borders: NO_BORDERS,
    rows: rows.map(
      (r) =>
        new TableRow({
          cantSplit: true,
          children: [
            cell(LABEL_COLUMN, [new Paragraph({ children: [new TextRun({ text: r.label || EMPTY, size: 18, color: MUTED })] })]),
            cell(CONTENT - LABEL_COLUMN, [
              new Paragraph({ children: [new TextRun({ text: r.value || EMPTY, size: r.strong ? 24 : 22, bold: r.strong === true })] }),
            ]),
          ],
        }),
    ),
  });
}

/** The QR code image, or nothing when the URL is missing or cannot be encoded. */
async function qrImage(url: string): Promise<ImageRun | undefined> {
  if (!url) return undefined;
  try {
    const data = await qrPng(url, { type: "png", errorCorrectionLevel: "M", margin: 4, scale: 8 });
    return new ImageRun({
      type: "png",
      data,
      transformation: { width: QR_PX, height: QR_PX },
      altText: { name: "Verification QR code", description: url, title: "Verification QR code" },
    });
  } catch {
    return undefined; // the URL is still printed as text
  }
}

function verifyBlock(url: string, qr: ImageRun | undefined): Table {
  const urlRun = new TextRun({ text: url || EMPTY, color: "0D4DA6", underline: {}, size: 20 });
  const urlParagraph = new Paragraph({
    children: LINKABLE.test(url) ? [new ExternalHyperlink({ link: url, children: [urlRun] })] : [urlRun],
  });
  const qrWidth = 2700;
  return new Table({
    layout: TableLayoutType.FIXED,
    width: { size: CONTENT, type: WidthType.DXA },
    columnWidths: [qrWidth, CONTENT - qrWidth],
    borders: NO_BORDERS,
    rows: [
      new TableRow({
        cantSplit: true,
        children: [
          new TableCell({ width: { size: qrWidth, type: WidthType.DXA }, children: [new Paragraph({ children: qr ? [qr] : [] })] }),
          new TableCell({
            width: { size: CONTENT - qrWidth, type: WidthType.DXA },
            verticalAlign: VerticalAlignTable.CENTER,
            children: [
              new Paragraph({ spacing: { after: 80 }, children: [new TextRun({ text: "Verify this certificate", bold: true, size: 24, color: NAVY })] }),
              new Paragraph({ spacing: { after: 60 }, children: [new TextRun({ text: "Scan the code or open this address:", size: 18, color: MUTED })] }),
              urlParagraph,
            ],
          }),
        ],
      }),
    ],
  });
}

export async function renderDocx(m: CleanModel): Promise<Uint8Array> {
  const qr = await qrImage(m.verifyUrl);
  const specimenRuns = (size: number) => [new TextRun({ text: SPECIMEN_TITLE, bold: true, color: RED, size })];

  const body: (Paragraph | Table)[] = [];
  if (m.specimen) {
    // Banner: white on red across the page, then the plain statement of what this is.
    body.push(
      new Paragraph({
        alignment: AlignmentType.CENTER,
        shading: { type: ShadingType.CLEAR, fill: RED, color: "auto" },
        spacing: { after: 80 },
        children: [new TextRun({ text: SPECIMEN_TITLE, bold: true, color: "FFFFFF", size: 40 })],
      }),
      new Paragraph({ spacing: { after: 240 }, children: [new TextRun({ text: SPECIMEN_NOTE, bold: true, color: RED, size: 20 })] }),
    );
  }
  body.push(
    new Paragraph({ children: [new TextRun({ text: m.insurerName || EMPTY, bold: true, size: 40, color: NAVY })] }),
    new Paragraph({
      spacing: { after: 200 },
      border: { bottom: { style: BorderStyle.SINGLE, size: 12, color: NAVY, space: 4 } },
      children: [new TextRun({ text: TITLE, bold: true, size: 22, color: MUTED })],
    }),
    detailsTable(certificateRows(m)),
  );
  if (m.printed.length > 0) {
    body.push(
      new Paragraph({ spacing: { before: 280, after: 80 }, children: [new TextRun({ text: "Particulars", bold: true, size: 24, color: NAVY })] }),
      detailsTable(m.printed.map(([label, value]) => ({ label, value }))),
    );
  }
  body.push(new Paragraph({ spacing: { before: 280 }, children: [] }), verifyBlock(m.verifyUrl, qr));

  const doc = new Document({
    creator: m.insurerName || "Insurer",
    title: `${m.specimen ? `${SPECIMEN_TITLE}: ` : ""}${TITLE} ${m.policyNo}`.trim(),
    description: m.specimen ? SPECIMEN_NOTE : `${m.productName} (${m.productCode})`,
    styles: { default: { document: { run: { font: "Arial", size: 21 } } } },
    sections: [
      {
        properties: {
          page: {
            size: { width: PAGE.width, height: PAGE.height },
            margin: { top: PAGE.margin, bottom: PAGE.margin, left: PAGE.margin, right: PAGE.margin },
          },
        },
        // Header and footer repeat on every page, so no page of a specimen can pass for a real one.
        headers: {
          default: new Header({
            children: [
              new Paragraph({
                alignment: AlignmentType.RIGHT,
                children: m.specimen ? specimenRuns(20) : [new TextRun({ text: `${TITLE} · ${m.policyNo || EMPTY}`, size: 16, color: MUTED })],
              }),
            ],
          }),
        },
        footers: {
          default: new Footer({
            children: [
              new Paragraph({
                children: m.specimen
                  ? [...specimenRuns(16), new TextRun({ text: " · not valid as evidence of insurance", bold: true, color: RED, size: 16 })]
                  : [new TextRun({ text: `${m.insurerName || EMPTY} · scan the QR code to confirm this certificate is genuine`, size: 16, color: MUTED })],
              }),
            ],
          }),
        },
        children: body,
      },
    ],
  });
  return Packer.pack(doc, "uint8array");
}
