/** The types of apply-patch.mjs (plain JavaScript, as postinstall runs it under Node) for TypeScript callers. */
export interface Hunk {
  header: string;
  before: string;
  after: string;
}
export function readPatch(patchFile: string): { file: string; hunks: Hunk[] }[];
export function unappliedHunks<H extends { after: string }>(text: string, hunks: H[]): H[];
export function applyHunks(text: string, hunks: Hunk[], file: string): string;
