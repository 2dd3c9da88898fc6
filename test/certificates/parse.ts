/**
 * Independent readers for the rendered certificates: real parsers (pdf.js via unpdf, mammoth and
 * jszip for DOCX, jpeg-js for JPG, jsQR for QR codes), never the renderer's own code.
 */
import { createCanvas, loadImage } from "@napi-rs/canvas";
import { XMLValidator } from "fast-xml-parser";
import { decode as decodeJpeg } from "jpeg-js";
import jsQR from "jsqr";
import JSZip from "jszip";
import mammoth from "mammoth";
import { extractLinks, extractText, getDocumentProxy, renderPageAsImage } from "unpdf";

/** pdf.js detaches the buffers it is given: always hand it a copy. */
const copy = (bytes: Uint8Array) => new Uint8Array(bytes);

export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string; links: string[] }> {
  const pdf = await getDocumentProxy(copy(bytes));
  const { totalPages, text } = await extractText(pdf, { mergePages: true });
  const { links } = await extractLinks(pdf);
  return { pages: totalPages, text, links };
}

/** Decodes the first QR code found in RGBA pixels, or undefined. */
export function readQr(rgba: Uint8ClampedArray, width: number, height: number): string | undefined {
  return jsQR(rgba, width, height)?.data;
}

/** Rasterises the PDF's pages with pdf.js and reads the first QR code found. */
export async function pdfQr(bytes: Uint8Array): Promise<string | undefined> {
  const { numPages } = await getDocumentProxy(copy(bytes));
  for (let page = 1; page <= numPages; page++) {
    const png = await renderPageAsImage(copy(bytes), page, { canvasImport: () => import("@napi-rs/canvas"), scale: 2 });
    const found = await pngQr(new Uint8Array(png));
    if (found !== undefined) return found;
  }
  return undefined;
}

export async function pngQr(png: Uint8Array): Promise<string | undefined> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, image.width, image.height);
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  return readQr(data, image.width, image.height);
}

export interface DocxContents {
  /** mammoth's raw text of the body. */
  text: string;
  /** Every XML part, by name (document, headers, footers, relationships …). */
  xml: Map<string, string>;
  /** Parts that are not well-formed XML, with the validator's message. */
  invalid: string[];
  media: Uint8Array[];
}

export async function docxContents(bytes: Uint8Array): Promise<DocxContents> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = new Map<string, string>();
  const invalid: string[] = [];
  const media: Uint8Array[] = [];
  for (const [name, entry] of Object.entries(zip.files)) {
    if (entry.dir) continue;
    if (/\.(xml|rels)$/.test(name)) {
      const content = await entry.async("string");
      xml.set(name, content);
      const verdict = XMLValidator.validate(content);
      if (verdict !== true) invalid.push(`${name}: ${verdict.err.msg} (line ${verdict.err.line})`);
    } else if (name.startsWith("word/media/")) {
      media.push(await entry.async("uint8array"));
    }
  }
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
  return { text: value, xml, invalid, media };
}

/** Text of every <w:t> in the given parts, XML entities decoded (for headers/footers mammoth skips). */
export function wordText(xml: string): string {
  const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return Array.from(xml.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g), (m) =>
    (m[1] ?? "").replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => entities[e] ?? ""),
  ).join("");
}

export interface JpegContents {
  width: number;
  height: number;
  rgba: Uint8Array;
  comments: string[];
}

/** Decodes the JPEG with jpeg-js and collects its COM segments (walked marker by marker up to SOS). */
export function jpegContents(bytes: Uint8Array): JpegContents {
  const image = decodeJpeg(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 256 });
  const comments: string[] = [];
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error("no SOI");
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw new Error(`marker expected at ${at}`);
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xda) break; // start of scan: no more header segments
    const length = ((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0);
    if (marker === 0xfe) comments.push(new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(at + 4, at + 2 + length)));
    at += 2 + length;
  }
  return { width: image.width, height: image.height, rgba: image.data, comments };
}
