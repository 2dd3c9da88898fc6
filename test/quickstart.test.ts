/**
 * docs/quickstart.md, executed: every ```sh quickstart block runs in bash (curl, and the operator
 * CLI) and the ```ts quickstart block runs with bun, in order, against a real server on a fresh
 * database (PGlite; PostgreSQL in the suite's PostgreSQL run); each output must match the ```json quickstart-answer / ```text
 * quickstart-output block that follows it in the guide.
 *
 * What the test changes, and only this: the guide's http://localhost:3000/ becomes the test
 * server's address; `<field>` placeholders in a shell block become that field of the previous
 * answer (as the reader copies them); `npm` runs in the repository (the reader is in it); the
 * client is imported from clients/typescript/src instead of the installed package. In the shown
 * answers `…` matches anything and `<UUID>`-style descriptions match their format.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, type Service, startService } from "./client/support";

const GUIDE = join(root, "docs/quickstart.md");
const GUIDE_URL = "http://localhost:3000/";

interface Block {
  lang: string;
  marker: string;
  text: string;
  line: number;
}

/** The fenced blocks of the guide, with their info string's language and marker. */
function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const m of markdown.matchAll(/^```(\w*)[ \t]*([\w-]*)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm))
    blocks.push({ lang: m[1]!, marker: m[2]!, text: m[3]!, line: markdown.slice(0, m.index).split("\n").length });
  return blocks;
}

/** Formats the guide describes with `<…>`. */
const DESCRIBED: Record<string, string> = {
  "<UUID>": "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
  "<32 hex characters>": "[0-9a-f]{32}",
  "<base64>": "[A-Za-z0-9+/]+={0,2}",
  "<timestamp>": "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d",
};

function pattern(shown: string): RegExp {
  const parts = shown.split(/(<[^<>]+>|…)/).map((part) => {
    if (part === "…") return "[\\s\\S]*";
    if (/^<[^<>]+>$/.test(part)) {
      if (!(part in DESCRIBED)) throw new Error(`the guide uses ${part}, which the test does not know: add it to DESCRIBED`);
      return DESCRIBED[part];
    }
    return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return new RegExp(`^${parts.join("")}$`);
}

/** Where `actual` differs from what the guide shows (same keys, same values; strings as patterns). */
function differences(actual: unknown, shown: unknown, path = "answer"): string[] {
  if (typeof shown === "string")
    return typeof actual === "string" && pattern(shown).test(actual) ? [] : [`${path}: ${JSON.stringify(actual)} does not match ${JSON.stringify(shown)}`];
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual) || actual.length !== shown.length) return [`${path}: ${JSON.stringify(actual)} is not an array of ${shown.length}`];
    return shown.flatMap((s, i) => differences(actual[i], s, `${path}[${i}]`));
  }
  if (shown && typeof shown === "object") {
    if (!actual || typeof actual !== "object") return [`${path}: ${JSON.stringify(actual)} is not an object`];
    const keys = new Set([...Object.keys(shown), ...Object.keys(actual)]);
    return [...keys].flatMap((k) =>
      !(k in shown)
        ? [`${path}.${k}: answered but not shown in the guide`]
        : !(k in actual)
          ? [`${path}.${k}: shown in the guide but not answered`]
          : differences((actual as any)[k], (shown as any)[k], `${path}.${k}`),
    );
  }
  return Object.is(actual, shown) ? [] : [`${path}: ${JSON.stringify(actual)} instead of ${JSON.stringify(shown)}`];
}

const field = (answer: unknown, path: string) => path.split(".").reduce<any>((value, key) => value?.[key], answer);

let service: Service;
let workdir: string;

beforeAll(async () => {
  service = await startService();
  workdir = mkdtempSync(join(tmpdir(), "quickstart-"));
}, 60_000);

afterAll(async () => {
  await service?.stop();
  if (workdir) rmSync(workdir, { recursive: true, force: true });
});

test("the guide's blocks are runnable, each followed by the answer it shows", () => {
  const blocks = fencedBlocks(readFileSync(GUIDE, "utf8"));
  const runnable = blocks.filter((b) => b.marker === "quickstart");
  expect(runnable.map((b) => b.lang)).toEqual(["sh", "sh", "sh", "sh", "sh", "sh", "sh", "sh", "ts"]);
  expect(
    blocks.filter((b) => b.marker.startsWith("quickstart")).every((b) => ["quickstart", "quickstart-answer", "quickstart-output"].includes(b.marker)),
  ).toBe(true);
});

test("docs/quickstart.md: the curl flow and the client flow run as written and answer as shown", async () => {
  const url = `http://localhost:${new URL(service.url).port}/`;
  const localise = (text: string) => text.replaceAll(GUIDE_URL, url);
  const blocks = fencedBlocks(readFileSync(GUIDE, "utf8")).filter((b) => b.marker.startsWith("quickstart"));
  const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...service.database, REPO: root };
  const state = join(workdir, ".state");
  let previous: unknown;
  let ran = 0;

  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (block.marker !== "quickstart") continue;
    const shown = blocks[i + 1]?.marker.startsWith("quickstart-") ? blocks[i + 1] : undefined;
    const where = `docs/quickstart.md:${block.line}`;
    let output: string;

    if (block.lang === "sh") {
      const text = localise(block.text).replace(/<([A-Za-z_][\w.]*)>/g, (_, path: string) => {
        const value = field(previous, path);
        if (typeof value !== "string") throw new Error(`${where}: <${path}> is not a field of the previous answer`);
        return value;
      });
      const script = [
        "set -euo pipefail",
        // The reader runs npm in the repository.
        'npm() { command npm --prefix "$REPO" "$@"; }',
        `[ -f ${state} ] && source ${state}`,
        text,
        `export -p > ${state}`,
      ].join("\n");
      const run = Bun.spawnSync(["bash", "-c", script], { cwd: workdir, env, stdout: "pipe", stderr: "pipe" });
      output = run.stdout.toString();
      expect({ where, exitCode: run.exitCode, stderr: run.stderr.toString() }).toEqual({ where, exitCode: 0, stderr: "" });
    } else {
      expect(block.lang).toBe("ts");
      const file = join(workdir, "quickstart.ts");
      const source = block.text.replace(`from "@partner-insurance/client"`, `from ${JSON.stringify(join(root, "clients/typescript/src/index"))}`);
      expect(source).not.toBe(block.text);
      writeFileSync(file, source);
      // It type-checks against the client's types as written …
      const tsc = Bun.spawnSync(
        [
          join(root, "node_modules/.bin/tsc"),
          "--noEmit",
          "--strict",
          "--target",
          "esnext",
          "--module",
          "esnext",
          "--moduleResolution",
          "bundler",
          "--skipLibCheck",
          "--types",
          "bun",
          "--typeRoots",
          join(root, "node_modules/@types"),
          file,
        ],
        { cwd: workdir, stdout: "pipe", stderr: "pipe" },
      );
      expect({ where, tsc: tsc.stdout.toString() + tsc.stderr.toString() }).toEqual({ where, tsc: "" });
      // … and runs with the environment of step 1.
      const vars = Object.fromEntries(
        [...readFileSync(state, "utf8").matchAll(/^declare -x (BASE_URL|PARTNER_ID|KEY_ID|KEY)="(.*)"$/gm)].map((m) => [m[1]!, m[2]!]),
      );
      expect(Object.keys(vars).sort()).toEqual(["BASE_URL", "KEY", "KEY_ID", "PARTNER_ID"]);
      const run = Bun.spawnSync([process.execPath, file], { cwd: workdir, env: { ...env, ...vars }, stdout: "pipe", stderr: "pipe" });
      output = run.stdout.toString();
      expect({ where, exitCode: run.exitCode, stderr: run.stderr.toString() }).toEqual({ where, exitCode: 0, stderr: "" });
      expect(readFileSync(join(workdir, "certificate.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
    }
    ran++;

    if (!shown) {
      expect({ where, output }).toEqual({ where, output: "" });
      continue;
    }
    if (shown.marker === "quickstart-answer") {
      previous = JSON.parse(output);
      expect({ where, differences: differences(previous, JSON.parse(localise(shown.text))) }).toEqual({ where, differences: [] });
    } else {
      const lines = output.trimEnd().split("\n");
      const expected = localise(shown.text).trimEnd().split("\n");
      expect({ where, lines: lines.length }).toEqual({ where, lines: expected.length });
      for (const [n, line] of expected.entries()) expect({ where, line: lines[n] }).toEqual({ where, line: expect.stringMatching(pattern(line)) });
    }
  }
  expect(ran).toBe(9);

  // The policies the guide issued are there, approved.
  const listed = await service.app.post({
    userInfo: { id: readState(state, "PARTNER_ID"), athrzt: { id: readState(state, "KEY_ID"), key: readState(state, "KEY") } },
    cmmnd: { cmmnd: "dump entt_*" },
  });
  expect(listed.list.map((p: any) => [p.productCode, p.status])).toEqual([
    ["vhcl-tprt-1111", "a"],
    ["vhcl-tprt-1111", "a"],
  ]);
}, 120_000);

const readState = (file: string, name: string) => new RegExp(`^declare -x ${name}="(.*)"$`, "m").exec(readFileSync(file, "utf8"))?.[1];
