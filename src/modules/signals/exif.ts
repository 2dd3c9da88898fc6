/**
 * The date a JPEG photograph says it was taken, from its EXIF (APP1 "Exif", a TIFF structure inside):
 * DateTimeOriginal in the Exif IFD, else DateTime in IFD0. Written for bytes anyone can send: every
 * offset is checked against the bytes it points into, at most MAX_SEGMENTS segments and two IFDs are
 * read (IFD0 and the Exif IFD it points to, never a chain), so it reads a bounded number of bytes, never
 * loops, and never throws: what it cannot read is null.
 */

/** The camera's date and time as written (no time zone: EXIF has none unless OffsetTime is set, which we do not trust). */
export interface PhotoDate {
  /** YYYY-MM-DD */
  day: string;
  /** HH:MM:SS */
  time: string;
  tag: "DateTimeOriginal" | "DateTime";
}

/** EXIF lives in the first segments, before the image data: the reader looks no further than this. */
export const PHOTO_HEAD_BYTES = 128 * 1024;
const MAX_SEGMENTS = 64;
/** More entries than any camera writes in one IFD; a larger count is read only this far. */
const MAX_ENTRIES = 512;
const TAG_DATE_TIME = 0x0132;
const TAG_EXIF_IFD = 0x8769;
const TAG_DATE_TIME_ORIGINAL = 0x9003;
const TYPE_ASCII = 2;
const TYPE_LONG = 4;
const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]; // "Exif\0\0"

/** The date the photograph was taken, as its EXIF says; null for anything else (not a JPEG, no EXIF, no date, malformed). */
export function photoDate(bytes: Uint8Array): PhotoDate | null {
  try {
    return readJpeg(bytes.subarray(0, PHOTO_HEAD_BYTES));
  } catch {
    // Unreachable by design (every read is bounds-checked); a guard so a photograph can never fail a claim.
    return null;
  }
}

function readJpeg(bytes: Uint8Array): PhotoDate | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let pos = 2;
  for (let segment = 0; segment < MAX_SEGMENTS; segment++) {
    // Fill bytes (0xFF repeated) may precede a marker.
    while (pos + 1 < bytes.length && bytes[pos] === 0xff && bytes[pos + 1] === 0xff) pos++;
    if (pos + 4 > bytes.length || bytes[pos] !== 0xff) return null;
    const marker = bytes[pos + 1]!;
    // Start of scan or end of image: the metadata segments are behind us.
    if (marker === 0xda || marker === 0xd9) return null;
    // Markers without a length (TEM, RSTn).
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2;
      continue;
    }
    const length = (bytes[pos + 2]! << 8) | bytes[pos + 3]!;
    if (length < 2) return null;
    const start = pos + 4;
    const end = Math.min(bytes.length, pos + 2 + length);
    if (marker === 0xe1 && end - start > EXIF_HEADER.length && EXIF_HEADER.every((b, i) => bytes[start + i] === b)) {
      const found = readTiff(bytes.subarray(start + EXIF_HEADER.length, end));
      if (found) return found;
    }
    pos += 2 + length;
  }
  return null;
}

/** A TIFF structure's reader: every read is checked against its bytes (out of bounds reads as null). */
function tiffReader(tiff: Uint8Array) {
  const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
  const little = tiff[0] === 0x49 && tiff[1] === 0x49; // "II"
  const fits = (offset: number, size: number) => Number.isInteger(offset) && offset >= 0 && offset + size <= tiff.length;
  const u16 = (offset: number) => (fits(offset, 2) ? view.getUint16(offset, little) : null);
  const u32 = (offset: number) => (fits(offset, 4) ? view.getUint32(offset, little) : null);
  /** The entries of the IFD at `offset` as tag → entry offset, as many as fit. */
  const entries = (offset: number): Map<number, number> => {
    const found = new Map<number, number>();
    const count = u16(offset);
    if (count === null) return found;
    const fitting = Math.min(count, MAX_ENTRIES, Math.floor((tiff.length - offset - 2) / 12));
    for (let i = 0; i < fitting; i++) {
      const entry = offset + 2 + i * 12;
      const tag = u16(entry);
      if (tag !== null && !found.has(tag)) found.set(tag, entry);
    }
    return found;
  };
  /** An ASCII value (up to its NUL), at most 64 characters: dates are 19. */
  const ascii = (entry: number | undefined): string | null => {
    if (entry === undefined || u16(entry + 2) !== TYPE_ASCII) return null;
    const count = u32(entry + 4);
    if (count === null || count === 0 || count > 64) return null;
    const at = count <= 4 ? entry + 8 : u32(entry + 8);
    if (at === null || !fits(at, count)) return null;
    let text = "";
    for (let i = 0; i < count && tiff[at + i] !== 0; i++) text += String.fromCharCode(tiff[at + i]!);
    return text;
  };
  const long = (entry: number | undefined): number | null => {
    if (entry === undefined || u16(entry + 2) !== TYPE_LONG || u32(entry + 4) !== 1) return null;
    return u32(entry + 8);
  };
  return { little, u16, u32, entries, ascii, long };
}

function readTiff(tiff: Uint8Array): PhotoDate | null {
  if (tiff.length < 8) return null;
  const order = String.fromCharCode(tiff[0]!, tiff[1]!);
  if (order !== "II" && order !== "MM") return null;
  const read = tiffReader(tiff);
  if (read.u16(2) !== 42) return null;
  const ifd0Offset = read.u32(4);
  if (ifd0Offset === null) return null;
  const ifd0 = read.entries(ifd0Offset);
  const exifOffset = read.long(ifd0.get(TAG_EXIF_IFD));
  // The Exif IFD once, and never IFD0 again as if it were it.
  const exif = exifOffset !== null && exifOffset !== ifd0Offset ? read.entries(exifOffset) : new Map<number, number>();
  const original = exifDate(read.ascii(exif.get(TAG_DATE_TIME_ORIGINAL)));
  if (original) return { ...original, tag: "DateTimeOriginal" };
  const changed = exifDate(read.ascii(ifd0.get(TAG_DATE_TIME)));
  return changed ? { ...changed, tag: "DateTime" } : null;
}

/** "2026:11:20 14:05:09" → its day and time; null for a blank ("0000:00:00 00:00:00") or impossible date. */
export function exifDate(text: string | null): { day: string; time: string } | null {
  const match = text ? /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text) : null;
  if (!match) return null;
  const [year, month, dayOfMonth, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  if (year < 1900 || hour > 23 || minute > 59 || second > 60) return null;
  const at = new Date(Date.UTC(year, month - 1, dayOfMonth));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== dayOfMonth) return null;
  return { day: `${match[1]}-${match[2]}-${match[3]}`, time: `${match[4]}:${match[5]}:${match[6]}` };
}
