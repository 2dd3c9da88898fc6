/**
 * The sandbox that teaches (issue 8): in TEST mode, a transaction reference (spec 2.5: up to 32
 * letters and digits) that starts with one of these prefixes, in any case, makes the simulated
 * insurer take that path, so a partner can exercise every transition of spec 3 without an insurer.
 * Live mode never looks at this table: there an "SBX…" reference is an ordinary reference.
 *
 * This table is the whole behaviour; docs/sandbox.md describes it for partners.
 */
import type { Mode } from "../../core/principal";

export interface MagicReference {
  /** Upper case; a reference matches when it starts with it, whatever its case. */
  prefix: string;
  /** The status the insure answer carries (test mode otherwise approves at once). */
  issued: "p" | "d";
  /**
   * What the background loop decides once INSURER_DELAY_MS has passed, as the insurer does in live
   * mode; null: nothing is decided automatically (an administrator may still decide with `appr`).
   */
  later: "a" | "d" | null;
  /** One line for the documentation and the portal. */
  summary: string;
}

export const MAGIC_REFERENCES: readonly MagicReference[] = [
  { prefix: "SBXDECLINE", issued: "d", later: null, summary: "declined at once; statusNote gives a reason in the product family's own words" },
  { prefix: "SBXPENDING", issued: "p", later: null, summary: "stays pending: never decided automatically (an administrator may still approve or decline it)" },
  {
    prefix: "SBXSLOW",
    issued: "p",
    later: "a",
    summary: "pending, then approved by the background loop after INSURER_DELAY_MS, as the insurer answers in live mode",
  },
  {
    prefix: "SBXSLOWDECLINE",
    issued: "p",
    later: "d",
    summary: "pending, then declined by the background loop after INSURER_DELAY_MS, with the same statusNote as SBXDECLINE",
  },
];

// Longest prefix first: SBXSLOWDECLINE must win over SBXSLOW.
const byLength = [...MAGIC_REFERENCES].sort((a, b) => b.prefix.length - a.prefix.length);

/** The magic behaviour a reference asks for; null in live mode and for every ordinary reference. */
export function magicReference(mode: Mode, reference: string): MagicReference | null {
  // Cheap first test (issuance is a hot path): every prefix starts with "SBX".
  if (mode !== "test" || reference.length < 3 || (reference.charCodeAt(0) | 0x20) !== 0x73) return null;
  const upper = reference.toUpperCase();
  if (!upper.startsWith("SBX")) return null;
  return byLength.find((magic) => upper.startsWith(magic.prefix)) ?? null;
}
