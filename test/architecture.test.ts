/**
 * The shape of the tree (docs/architecture.md): the import graph of src/ and views/ has no cycle
 * (type imports included), a module's commands, pages and jobs are registered only through its
 * manifest (src/modules/<area>/index.ts, gathered by src/modules/index.ts), and the database holds
 * exactly the tables the manifests declare.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { modules } from "../src/modules";
import { testDatabase } from "./support/harness";

const root = resolve(import.meta.dir, "..");
const sources = [...new Bun.Glob("{src,views}/**/*.{ts,tsx}").scanSync(root)].map((file) => join(root, file));

/** Relative imports and re-exports of a file (`import type` too: a cycle of types is still a cycle of modules). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms)].flatMap(([, path]) => {
    const base = resolve(dirname(file), path!);
    const found = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate));
    return found ? [found] : [];
  });
}

const graph = new Map(sources.map((file) => [file, importsOf(file)]));

/** The strongly connected components with more than one file (Tarjan). */
function cycles(): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(relative(root, member));
      if (member === file) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

test("src/ and views/ import each other without a cycle", () => {
  expect(cycles()).toEqual([]);
});

test("a module's commands, pages and jobs are imported only by its manifest", () => {
  const registered = /^src\/modules\/([^/]+)\/(commands|portal|admin|jobs)\.tsx?$/;
  const strays: string[] = [];
  for (const [file, imports] of graph) {
    const from = relative(root, file);
    for (const target of imports) {
      const match = registered.exec(relative(root, target));
      if (match && from !== `src/modules/${match[1]}/index.ts`) strays.push(`${from} imports ${relative(root, target)}`);
    }
  }
  expect(strays).toEqual([]);
});

test("every module folder has a manifest, and src/modules/index.ts lists each once", () => {
  const folders = readdirSync(join(root, "src/modules"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, "src/modules", entry.name, "index.ts")))
    .map((entry) => entry.name)
    .sort();
  expect(modules.map((module) => module.name).sort()).toEqual(folders);
  // Folders without a manifest are libraries other modules use (the sandbox insurer), with nothing to register.
  const withoutManifest = readdirSync(join(root, "src/modules"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !folders.includes(entry.name))
    .map((entry) => entry.name);
  for (const folder of withoutManifest)
    expect({ folder, registers: readdirSync(join(root, "src/modules", folder)).filter((file) => /^(commands|portal|admin|jobs|schema)\./.test(file)) }).toEqual(
      {
        folder,
        registers: [],
      },
    );
});

test("the database holds exactly the tables the manifests declare, each declared once", async () => {
  const declared = modules.flatMap((module) =>
    Object.values(module.tables ?? {})
      .filter((value) => is(value, PgTable))
      .map((table) => getTableName(table as PgTable)),
  );
  expect(new Set(declared).size).toBe(declared.length);
  const { db } = await testDatabase();
  // postgres.js answers an array of rows, PGlite an object with `rows`.
  const answer = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { table_name: string }[] | { rows: { table_name: string }[] };
  const stored = ("rows" in answer ? answer.rows : answer).map((row) => row.table_name);
  expect(stored.sort()).toEqual(declared.sort());
});
