/**
 * The command table of docs/commands.md, generated from the registry: `npm run docs:commands`
 * rewrites it, and test/reference.test.ts fails when it is not current.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { commandRegistry } from "../assembly/commands";
import { type Definition, slugOf } from "./model";

export const COMMANDS_MD = fileURLToPath(new URL("../../docs/commands.md", import.meta.url));

const BEGIN = "<!-- commands-table: generated from the registry by `npm run docs:commands`; do not edit by hand -->";
const END = "<!-- /commands-table -->";

const cell = (text: string) => text.replaceAll("|", "\\|");

export function commandsTable(definitions: readonly Definition[]): string {
  const rows = definitions.map(
    (d) =>
      `| \`${cell(d.grammar)}\` | ${d.who === "admin" ? "administrator" : d.needsEnrichment ? "partner, activated" : "partner"} | ${cell(d.summary)} ` +
      `| [/docs#${slugOf(d.grammar)}](/docs#${slugOf(d.grammar)}) |`,
  );
  return [BEGIN, "", "| Command | Who | What it does | Reference |", "|---|---|---|---|", ...rows, "", END].join("\n");
}

/** The document with its generated table replaced by `table`. */
export function withCommandsTable(markdown: string, table: string): string {
  const start = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/commands.md has no generated table between "${BEGIN}" and "${END}"`);
  return markdown.slice(0, start) + table + markdown.slice(end + END.length);
}

if (import.meta.main) {
  const current = readFileSync(COMMANDS_MD, "utf8");
  const updated = withCommandsTable(current, commandsTable(commandRegistry.definitions));
  if (updated !== current) writeFileSync(COMMANDS_MD, updated);
  console.log(updated === current ? "docs/commands.md is current" : "docs/commands.md: command table regenerated");
}
