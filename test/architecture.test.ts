/**
 * The shape of the tree (docs/architecture.md), read from the import graph of src/ and views/ (type
 * imports included): no cycle; each layer imports only the layers its rule names; modules import
 * each other downward only, in the order written below, and only through the other module's
 * index.ts; whatever registers a command, a page or a job is imported only by its module's manifest
 * (src/modules/<area>/module.ts, gathered by src/modules/index.ts); and the database holds exactly
 * the tables the manifests declare. The last tests feed the same checks a graph with deliberately
 * wrong imports, to show each rule fails on one.
 */
import { describe, expect, test } from "bun:test";
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
/** The same graph with paths relative to the root, as the rules below read it. */
type Graph = ReadonlyMap<string, readonly string[]>;
const tree: Graph = new Map([...graph].map(([file, imports]) => [relative(root, file), imports.map((target) => relative(root, target))]));

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

/**
 * The layers, bottom to top, and what each may import besides itself. The assembly (the boot
 * files, src/assembly, the worker, the reference, the registry service) gathers everything and
 * may import anything; nothing imports it but itself.
 */
const LAYERS = [
  { name: "core", under: ["src/core/"], may: [] },
  { name: "db", under: ["src/db/"], may: ["core"] },
  { name: "products", under: ["src/products/"], may: ["core"] },
  { name: "views", under: ["views/"], may: ["core", "products"] },
  { name: "toolkit", under: ["src/http/", "src/portal/"], may: ["core", "db", "products", "views"] },
  { name: "modules", under: ["src/modules/"], may: ["core", "db", "products", "views", "toolkit"] },
  {
    name: "assembly",
    under: ["src/assembly/", "src/worker/", "src/reference/", "src/niid/", "src/"],
    may: ["core", "db", "products", "views", "toolkit", "modules"],
  },
] as const;

const layerOf = (file: string) => LAYERS.find((layer) => layer.under.some((prefix) => file.startsWith(prefix)))!;

function layerBreaks(graph: Graph): string[] {
  const breaks: string[] = [];
  for (const [file, imports] of graph) {
    const from = layerOf(file);
    for (const target of imports) {
      const to = layerOf(target);
      if (to !== from && !(from.may as readonly string[]).includes(to.name)) breaks.push(`${file} (${from.name}) imports ${target} (${to.name})`);
    }
  }
  return breaks;
}

/**
 * The modules, in tiers from the bottom: a module imports only modules of lower tiers, so no two
 * import each other, however indirectly. Where a lower module needs something of a higher one, the
 * assembly hands it down (ServiceFacts in src/modules/manifest.ts; routeEventsBy in src/modules/index.ts).
 */
const MODULE_TIERS: readonly (readonly string[])[] = [
  ["api-log", "audit", "sandbox"],
  ["calendar", "partners"],
  ["consumers", "events", "quotes"],
  ["messages", "policies", "webhooks"],
  ["accounts", "certificates", "enrichment", "financing", "wallet"],
  ["commissions", "funding", "payouts", "signals"],
  ["claims", "issuance"],
  ["complaints", "dashboard", "lifecycle", "reporting", "search"],
  ["notices"],
  ["selfservice"],
];
const tierOf = new Map(MODULE_TIERS.flatMap((tier, level) => tier.map((module) => [module, level] as const)));

/** The module folder a file is in (not the shared src/modules/index.ts and manifest.ts). */
const moduleOf = (file: string) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];

function moduleBreaks(graph: Graph): string[] {
  const breaks: string[] = [];
  for (const [file, imports] of graph) {
    const from = moduleOf(file);
    for (const target of imports) {
      const to = moduleOf(target);
      if (!to || to === from) continue;
      // The list of manifests and the contract they follow are no module's own: src/modules/index.ts
      // wires the modules together, and manifest.ts names the kernel's types every manifest uses.
      if (!from && file !== "src/modules/index.ts" && file !== "src/modules/manifest.ts") continue;
      if (from && !(tierOf.get(to)! < tierOf.get(from)!)) breaks.push(`${file} imports ${target}: ${from} may use only modules below it, and ${to} is not`);
      if (from && target !== `src/modules/${to}/index.ts`) breaks.push(`${file} imports ${target}: another module is used through its index.ts only`);
      if (!from && file === "src/modules/index.ts" && target !== `src/modules/${to}/index.ts` && target !== `src/modules/${to}/module.ts`)
        breaks.push(`${file} imports ${target}: a module's manifest (module.ts) or its index.ts only`);
    }
  }
  return breaks;
}

/** Pairs of modules that import each other, in any way (what the tiers rule out). */
function twoWayPairs(graph: Graph): string[] {
  const uses = new Set<string>();
  for (const [file, imports] of graph)
    for (const target of imports) {
      const [from, to] = [moduleOf(file), moduleOf(target)];
      if (from && to && from !== to) uses.add(`${from} ${to}`);
    }
  return [...uses].filter((pair) => pair.split(" ")[0]! < pair.split(" ")[1]! && uses.has(pair.split(" ").reverse().join(" ")));
}

/** A module file registers something when it builds pages (Elysia), command entries or background jobs. */
const REGISTERS = [/\bnew Elysia\(/, /^\s*command\(\{/m, /\bimport type \{[^}]*\bJob\b[^}]*\} from "[./]*core\/job"/];

function registrationBreaks(graph: Graph, registers: (file: string) => boolean): string[] {
  const breaks: string[] = [];
  for (const [file, imports] of graph)
    for (const target of imports) {
      const module = moduleOf(target);
      if (module && registers(target) && file !== `src/modules/${module}/module.ts`)
        breaks.push(`${file} imports ${target}, which registers: only its manifest may`);
    }
  return breaks;
}

const registersInTree = (file: string) =>
  !!moduleOf(file) && !file.endsWith("/module.ts") && REGISTERS.some((pattern) => pattern.test(readFileSync(join(root, file), "utf8")));

test("each layer imports only the layers below it that its rule names", () => {
  expect(layerBreaks(tree)).toEqual([]);
});

test("modules import each other downward by tier, through index.ts only, and every module has its tier", () => {
  expect(moduleBreaks(tree)).toEqual([]);
  expect(twoWayPairs(tree)).toEqual([]);
  const folders = readdirSync(join(root, "src/modules"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  expect(folders.map((entry) => entry.name).filter((name) => !tierOf.has(name))).toEqual([]);
});

test("whatever registers a command, a page or a job is imported only by its module's manifest", () => {
  const registering = [...tree.keys()].filter(registersInTree);
  // The rule is not vacuous: pages, commands and jobs are found by what they build.
  expect(registering).toContain("src/modules/issuance/commands.ts");
  expect(registering).toContain("src/modules/certificates/routes.tsx");
  expect(registering).toContain("src/modules/dashboard/compaction.ts");
  // Every file named for what it registers is found by what it builds (the rule by name, kept).
  const named = [...tree.keys()].filter((file) => /^src\/modules\/[^/]+\/(commands|portal|admin|jobs)\.tsx?$/.test(file));
  expect(named.filter((file) => !registering.includes(file))).toEqual([]);
  expect(registrationBreaks(tree, registersInTree)).toEqual([]);
});

test("every module folder with a manifest is listed once in src/modules/index.ts; the others are libraries that register nothing", () => {
  const folders = readdirSync(join(root, "src/modules"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(root, "src/modules", entry.name, "module.ts")))
    .map((entry) => entry.name)
    .sort();
  expect(modules.map((module) => module.name).sort()).toEqual(folders);
  const libraries = readdirSync(join(root, "src/modules"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !folders.includes(entry.name))
    .map((entry) => entry.name);
  for (const folder of libraries)
    expect({
      folder,
      registers: readdirSync(join(root, "src/modules", folder)).filter(
        (file) => /^(commands|portal|admin|jobs|schema)\./.test(file) || registersInTree(`src/modules/${folder}/${file}`),
      ),
    }).toEqual({ folder, registers: [] });
});

describe("the rules fail on a deliberately wrong import", () => {
  /** The real tree with one more import. */
  const withImport = (file: string, target: string): Graph => new Map([...tree, [file, [...(tree.get(file) ?? []), target]]]);

  test("core importing a module, a view importing the portal kit, the toolkit importing a module", () => {
    expect(layerBreaks(withImport("src/core/money.ts", "src/modules/policies/index.ts"))).toEqual([
      "src/core/money.ts (core) imports src/modules/policies/index.ts (modules)",
    ]);
    expect(layerBreaks(withImport("views/format.ts", "src/portal/kit.tsx"))).toEqual(["views/format.ts (views) imports src/portal/kit.tsx (toolkit)"]);
    expect(layerBreaks(withImport("src/portal/kit.tsx", "src/modules/accounts/service.ts"))).toEqual([
      "src/portal/kit.tsx (toolkit) imports src/modules/accounts/service.ts (modules)",
    ]);
  });

  test("the policies kernel importing the lifecycle (upward), issuance both ways, and the lifecycle reaching past claims' index.ts", () => {
    expect(moduleBreaks(withImport("src/modules/policies/service.ts", "src/modules/lifecycle/cancellation.ts"))).toEqual([
      "src/modules/policies/service.ts imports src/modules/lifecycle/cancellation.ts: policies may use only modules below it, and lifecycle is not",
      "src/modules/policies/service.ts imports src/modules/lifecycle/cancellation.ts: another module is used through its index.ts only",
    ]);
    expect(twoWayPairs(withImport("src/modules/policies/service.ts", "src/modules/issuance/index.ts"))).toEqual(["issuance policies"]);
    expect(moduleBreaks(withImport("src/modules/lifecycle/renewal.ts", "src/modules/claims/service.ts"))).toEqual([
      "src/modules/lifecycle/renewal.ts imports src/modules/claims/service.ts: another module is used through its index.ts only",
    ]);
  });

  test("a page imported by anything but its manifest", () => {
    expect(registrationBreaks(withImport("src/assembly/portal.ts", "src/modules/claims/portal.tsx"), registersInTree)).toEqual([
      "src/assembly/portal.ts imports src/modules/claims/portal.tsx, which registers: only its manifest may",
    ]);
  });
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
