/**
 * A minimal reader and applier of the unified diffs in patches/ (what `diff -u` and `git diff` write).
 * Plain Node with no dependency, so postinstall runs under any `npm install`: slim container images
 * have neither git nor patch(1), and patch-package would add many packages for this.
 *
 * A hunk is found by its whole text, context lines included, which must occur exactly once in the
 * file; line numbers are not used. A hunk whose result is already in the file is skipped, so applying
 * a patch again changes nothing, and a file patched before a hunk was added gets just that hunk.
 */
import { readFileSync } from "node:fs";

/**
 * The files of a patch (paths without git's `a/` and `b/`) and their hunks: the lines each replaces
 * (`before`: context and removed lines) and the lines it leaves (`after`: context and added lines),
 * and its header, which names the fix after the second `@@`.
 * @param {string} patchFile
 * @returns {{ file: string, hunks: { header: string, before: string, after: string }[] }[]}
 */
export function readPatch(patchFile) {
  const lines = readFileSync(patchFile, "utf8").split("\n");
  const files = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("+++ ")) files.push({ file: line.slice(4).split("\t")[0].replace(/^b\//, ""), hunks: [] });
    const counts = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (!counts) continue;
    const file = files.at(-1);
    const hunk = { header: line, before: "", after: "" };
    if (!file) throw new Error(`${patchFile}: ${hunk.header} comes before any file's header`);
    // Without a count a side has one line; a blank context line may have lost its leading space.
    for (let removed = Number(counts[1] ?? 1), added = Number(counts[2] ?? 1); removed > 0 || added > 0; ) {
      const body = lines[++i];
      const sign = body === "" ? " " : body?.[0];
      if (!sign || !" +-".includes(sign) || (sign !== "+" && removed === 0) || (sign !== "-" && added === 0))
        throw new Error(`${patchFile}: ${hunk.header} does not match its line counts`);
      if (sign !== "+") {
        hunk.before += `${body.slice(1)}\n`;
        removed--;
      }
      if (sign !== "-") {
        hunk.after += `${body.slice(1)}\n`;
        added--;
      }
    }
    file.hunks.push(hunk);
  }
  return files;
}

/**
 * The hunks whose result is not in `text`.
 * @template {{ after: string }} H
 * @param {string} text
 * @param {H[]} hunks
 * @returns {H[]}
 */
export function unappliedHunks(text, hunks) {
  return hunks.filter((hunk) => !text.includes(hunk.after));
}

/**
 * `text` with every hunk applied; throws, naming `file` and the hunk, when a hunk's lines are not
 * in it exactly once (a new version of the package: see whether the fix is still needed).
 * @param {string} text
 * @param {{ header: string, before: string, after: string }[]} hunks
 * @param {string} file
 * @returns {string}
 */
export function applyHunks(text, hunks, file) {
  for (const hunk of unappliedHunks(text, hunks)) {
    if (text.split(hunk.before).length !== 2) throw new Error(`${file} does not contain the lines of ${hunk.header} exactly once`);
    text = text.replace(hunk.before, () => hunk.after);
  }
  return text;
}
