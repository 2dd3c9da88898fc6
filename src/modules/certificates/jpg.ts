/**
 * JPG certificate: the shared layout painted with @napi-rs/canvas (Skia, prebuilt binary shipped in
 * the npm package) at 150 dpi, text in the same DejaVu Sans files as the PDF. A JPEG comment
 * segment carries the certificate's text, so the image stays searchable and checkable without OCR.
 */
import type { SKRSContext2D } from "@napi-rs/canvas";
import { FONT_FILES } from "./fonts";
import { A4, darkRuns, layoutCertificate, type Op, type Rgb } from "./layout";
import { type CleanModel, summaryText } from "./text";

type CanvasModule = typeof import("@napi-rs/canvas");

const JPG_WIDTH = 1240; // A4 at 150 dpi
const SCALE = JPG_WIDTH / A4.width;
const QUALITY = 88;
const FAMILY = { regular: "CertificateSans", bold: "CertificateSansBold" } as const;

let canvasModule: Promise<CanvasModule> | undefined;

/**
 * The native module is imported on first JPG only (a machine without the prebuilt binary can still
 * render PDF and DOCX), and the fonts are registered with it once.
 */
function loadCanvas(): Promise<CanvasModule> {
  canvasModule ??= import("@napi-rs/canvas").then(
    (mod) => {
      mod.GlobalFonts.registerFromPath(FONT_FILES.regular, FAMILY.regular);
      mod.GlobalFonts.registerFromPath(FONT_FILES.bold, FAMILY.bold);
      return mod;
    },
    (error: unknown) => {
      canvasModule = undefined; // let a later call retry
      throw error;
    },
  );
  return canvasModule;
}

const css = ([r, g, b]: Rgb) => `rgb(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)})`;
const font = (size: number, bold: boolean) => `${(size * SCALE).toFixed(2)}px ${bold ? FAMILY.bold : FAMILY.regular}`;

function paint(ctx: SKRSContext2D, op: Op) {
  switch (op.kind) {
    case "text":
      ctx.font = font(op.size, op.bold);
      ctx.fillStyle = css(op.color);
      ctx.fillText(op.text, op.x * SCALE, op.y * SCALE);
      return;
    case "rect":
      ctx.fillStyle = css(op.color);
      ctx.fillRect(op.x * SCALE, op.y * SCALE, op.w * SCALE, op.h * SCALE);
      return;
    case "qr": {
      // Whole-pixel modules (no blur between them), centred in the reserved square, so readers decode reliably.
      const n = op.qr.size;
      const box = op.size * SCALE;
      const unit = Math.max(1, Math.floor(box / (n + 8)));
      const x0 = Math.round(op.x * SCALE + (box - unit * (n + 8)) / 2) + 4 * unit;
      const y0 = Math.round(op.y * SCALE + (box - unit * (n + 8)) / 2) + 4 * unit;
      ctx.fillStyle = "#ffffff";
      ctx.fillRect(x0 - 4 * unit, y0 - 4 * unit, unit * (n + 8), unit * (n + 8));
      ctx.fillStyle = "#000000";
      for (const { row, start, length } of darkRuns(op.qr)) ctx.fillRect(x0 + start * unit, y0 + row * unit, length * unit, unit);
      return;
    }
    case "watermark":
      ctx.save();
      ctx.globalAlpha = 0.16;
      ctx.translate(op.x * SCALE, op.y * SCALE);
      ctx.rotate((-op.angle * Math.PI) / 180);
      ctx.font = font(op.size, true);
      ctx.fillStyle = css(op.color);
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(op.text, 0, 0);
      ctx.restore();
      return;
    case "link":
      return; // a raster has no links; the URL is printed and in the QR code
  }
}

const COM_MAX = 65533; // a segment's length field is 16 bits and counts itself

/** Inserts a COM (comment) segment holding `text` as UTF-8, after SOI and any APPn headers. */
export function withJpegComment(jpeg: Uint8Array, text: string): Uint8Array {
  let data = new TextEncoder().encode(text);
  if (data.length > COM_MAX) {
    // Cut on a code point boundary: skip back over UTF-8 continuation bytes.
    let end = COM_MAX;
    while (end > 0 && ((data[end] ?? 0) & 0xc0) === 0x80) end--;
    data = data.subarray(0, end);
  }
  let at = 2; // after SOI
  while (jpeg[at] === 0xff && (jpeg[at + 1] ?? 0) >= 0xe0 && (jpeg[at + 1] ?? 0) <= 0xef) {
    at += 2 + (((jpeg[at + 2] ?? 0) << 8) | (jpeg[at + 3] ?? 0));
  }
  const length = data.length + 2;
  const out = new Uint8Array(jpeg.length + 4 + data.length);
  out.set(jpeg.subarray(0, at), 0);
  out.set([0xff, 0xfe, length >> 8, length & 0xff], at);
  out.set(data, at + 4);
  out.set(jpeg.subarray(at), at + 4 + data.length);
  return out;
}

export async function renderJpg(m: CleanModel): Promise<Uint8Array> {
  const { createCanvas } = await loadCanvas();
  const [page] = layoutCertificate(m).pages; // one page, as tall as the content
  if (!page) throw new Error("certificate layout produced no page");
  const canvas = createCanvas(JPG_WIDTH, Math.ceil(page.height * SCALE));
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#ffffff"; // JPEG has no transparency: paint the paper
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (const op of page.ops) paint(ctx, op);
  const jpeg = await canvas.encode("jpeg", QUALITY);
  return withJpegComment(new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength), summaryText(m));
}
