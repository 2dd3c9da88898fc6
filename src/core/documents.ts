import { CommandError } from "./errors";

export interface DecodedDocument {
  mime: "application/pdf" | "image/jpeg" | "image/png" | "image/webp";
  bytes: Uint8Array;
}

const base64Body = /^[A-Za-z0-9+/]+={0,2}$/;

function sniff(bytes: Uint8Array): DecodedDocument["mime"] | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return "application/pdf"; // %PDF-
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp";
  return null;
}

/**
 * A base64 document field (optionally a data: URL, line breaks allowed) → its bytes and
 * sniffed type. The declared type of a data: URL is ignored: the bytes decide.
 */
export function decodeDocument(value: string, field: string, maxBytes: number): DecodedDocument {
  const body = value.replace(/^data:[^,]*;base64,/i, "").replace(/\s+/g, "");
  if (!base64Body.test(body) || body.length % 4 === 1)
    throw new CommandError(400, `${field} must be base64 (the document's bytes encoded with A-Z, a-z, 0-9, + and /)`, field);
  if (Math.floor((body.length * 3) / 4) > maxBytes + 2)
    throw new CommandError(413, `${field} is too large: documents may be at most ${maxBytes} bytes once decoded`, field);
  const bytes = new Uint8Array(Buffer.from(body, "base64"));
  if (bytes.length > maxBytes) throw new CommandError(413, `${field} is too large: documents may be at most ${maxBytes} bytes once decoded`, field);
  const mime = sniff(bytes);
  if (!mime) throw new CommandError(415, `${field} must be a JPEG, PNG, WebP image or a PDF document; the decoded bytes are none of these`, field);
  return { mime, bytes };
}
