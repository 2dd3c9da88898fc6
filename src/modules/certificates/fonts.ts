/**
 * The certificate typeface: DejaVu Sans (regular and bold) from the `dejavu-fonts-ttf` npm package.
 * pdf-lib's standard fonts are WinAnsi only (no "₦", no Yoruba dot-below letters), so the PDF and
 * the JPG both draw with this embedded Unicode TTF. Files are read and parsed once per process.
 */

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import { splitGraphemes } from "./text";

type FontkitFont = ReturnType<typeof fontkit.create>;

const require = createRequire(import.meta.url);

/** Absolute paths of the TTFs (also registered with the JPG renderer's canvas). */
export const FONT_FILES = {
  regular: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
  bold: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
} as const;

// Marks and invisible format characters the font lacks are dropped rather than shown as "?".
// biome-ignore lint/suspicious/noMisleadingCharacterClass: each character is tested alone (^…$), never a sequence
const DROPPABLE = /^[\p{M}\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]$/u;

/** One parsed face with cached advance widths. */
export class Face {
  readonly bytes: Uint8Array;
  readonly font: FontkitFont;
  private readonly advances = new Map<number, number>();
  private readonly unitsPerEm: number;

  constructor(path: string) {
    this.bytes = new Uint8Array(readFileSync(path));
    this.font = fontkit.create(this.bytes);
    this.unitsPerEm = this.font.unitsPerEm;
  }

  /**
   * The text with every character the font cannot draw replaced by "?", so no renderer falls back
   * to an invisible .notdef box or to a system font that may not exist. Works per grapheme: an
   * emoji sequence (👨‍👩‍👧) becomes one "?", and marks or selectors the font lacks are just dropped.
   */
  printable(text: string): string {
    const has = (ch: string) => this.font.hasGlyphForCodePoint(ch.codePointAt(0) ?? 0);
    const droppable = (ch: string) => DROPPABLE.test(ch);
    let out = "";
    for (const g of splitGraphemes(text)) {
      const chars = [...g];
      if (chars.every(has)) out += g;
      else if (chars[0] !== undefined && has(chars[0])) out += chars.map((ch) => (has(ch) ? ch : droppable(ch) ? "" : "?")).join("");
      else if (!chars.every(droppable)) out += "?";
    }
    return out;
  }

  /** Width in points at `size`: the sum of advance widths (pdf-lib draws without kerning, so this is exact there). */
  width(text: string, size: number): number {
    let units = 0;
    for (const ch of text) {
      const cp = ch.codePointAt(0) ?? 0x3f;
      let advance = this.advances.get(cp);
      if (advance === undefined) {
        advance = this.font.hasGlyphForCodePoint(cp) ? this.font.glyphForCodePoint(cp).advanceWidth : 0;
        this.advances.set(cp, advance);
      }
      units += advance;
    }
    return (units / this.unitsPerEm) * size;
  }
}

export interface Faces {
  regular: Face;
  bold: Face;
}

let faces: Faces | undefined;

/** Both faces, loaded on first use and kept for the life of the process. */
export function certificateFaces(): Faces {
  faces ??= { regular: new Face(FONT_FILES.regular), bold: new Face(FONT_FILES.bold) };
  return faces;
}
