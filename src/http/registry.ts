import type { z } from "zod";
import type { Config } from "../core/config";
import { CommandError } from "../core/errors";
import type { Principal } from "../core/principal";
import { parseWith } from "../core/validation";
import type { Database } from "../db/client";

export interface CommandContext {
  db: Database;
  config: Config;
  principal: Principal;
  requestId: string;
  now: () => Date;
}

type Who = "partner" | "admin";

/** A JSON value as examples write it (requests and answers). */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };
export type JsonObject = { readonly [key: string]: Json };

/**
 * A refusal a command documents (spec 7): exctnFdbck.id_v4 and the elbrtn wording, `<…>` marking
 * the parts that vary (a field, a value). Examples that demonstrate it are checked against it.
 */
export interface DocumentedError {
  status: number;
  elbrtn: string;
  /** The condition, in the reader's words, when the wording does not say it. */
  when?: string;
}

export const refusal = (status: number, elbrtn: string, when?: string): DocumentedError => ({ status, elbrtn, ...(when ? { when } : {}) });

const adminOnly = (grammar: string) => `command '${grammar}' is available only to the operator's administrator account`;
const NOT_ACTIVATED_MESSAGE = "enrichment is not activated on this account: ask the operator to activate it";

/** The refusals the registry itself makes, before any command runs. */
export const ADMIN_ONLY = refusal(403, adminOnly("<command>"), "an administrator command from a partner's account");
export const NOT_ACTIVATED = refusal(403, NOT_ACTIVATED_MESSAGE, "an enrichment command on an account without enrichment (spec 5.8)");

/**
 * A request of the reference (/docs, /openapi.json) that test/reference.test.ts sends to the real
 * app. `{{…}}` placeholders: `{{<example>.<field>}}` is a field of an earlier example's answer
 * (that example runs first, for the same partner), `{{today}}` / `{{today+30}}` a date in Nigerian
 * time, `{{webhookUrl}}` the partner's own endpoint; in answers `{{uuid}}`, `{{timestamp}}` … stand
 * for generated values of that form (src/reference/placeholders.ts lists them).
 */
interface ExampleRequest {
  /** Unique in the registry: other examples name its answer by it. */
  name: string;
  title: string;
  cmmnd: string;
  seed?: Json;
  /** The key it is sent with (spec 5.5); a test key unless said. */
  key?: "test" | "live" | "legacy";
  /** Who sends it: the command's `who` unless said (a partner trying an administrator command). */
  as?: Who;
  /** Examples run first for their effect (a quote on file, a funded wallet), besides those whose answers it names. */
  after?: readonly string[];
}

export type CommandExample = ExampleRequest &
  (
    | { /** The answer's fields besides exctnFdbck (id 75). */ answer: JsonObject; refusal?: never }
    | { /** The documented refusal it shows (id 55), one of the command's `errors`. */ refusal: DocumentedError; answer?: never }
  );

/** A seed whose fields depend on the product: one variant per product code. */
export interface SeedVariant {
  /** The product code. */
  key: string;
  /** When the command string names the product (quotes): the command string of this variant. */
  cmmnd?: string;
  seed: z.ZodType;
}

export interface CommandDefinition<Seed = unknown, Answer extends z.ZodType = z.ZodType> {
  /** The command as the spec writes it, e.g. "dump ipck_<product_code>*PRMM". */
  grammar: string;
  /** Matches cmmnd.cmmnd; named groups become `params`. */
  pattern: RegExp;
  who: Who;
  /** Enrichment commands need activation on the account (spec 5.8: 403 otherwise). */
  needsEnrichment?: boolean;
  /** Validates cmmnd.seed (absent seed is validated as {}); omitted → the handler gets the raw seed. */
  seed?: z.ZodType<Seed>;
  /**
   * For a seed the handler validates itself (blank fields are 406 before the shape, the spec words
   * a refusal itself): the schema it validates with, shown in the reference. Neither this, `seed`
   * nor `seedVariants`: the command reads no seed.
   */
  documentedSeed?: z.ZodType;
  /** A seed that depends on the product (quote, insure): one variant per product, from the families' own schemas. */
  seedVariants?: () => readonly SeedVariant[];
  summary: string;
  /** The answer's fields besides exctnFdbck: the handler must return this (test/reference.test.ts checks every example). */
  answer: Answer;
  /** The notable refusals (common ones, such as credentials and blank fields, are listed once in the reference). */
  errors: readonly DocumentedError[];
  /** At least one; each is executed by test/reference.test.ts. */
  examples: readonly CommandExample[];
  handler(ctx: CommandContext, params: Record<string, string>, seed: Seed): Promise<z.input<Answer>>;
  /**
   * Commands with a partner's reference: what a completed run of this request stored, answered as
   * the command answers it (or as a repeat of the reference is answered), found by the partner and
   * the seed's reference. `null`: nothing stored under the reference; `undefined`: the seed names no
   * reference, so nothing can be looked up. Throws the refusal the command gives when the reference
   * holds something else. The endpoint asks it when a lost connection left a commit's outcome unknown.
   */
  recover?(ctx: CommandContext, params: Record<string, string>, seed: Seed): Promise<z.input<Answer> | null | undefined>;
}

/** Typed helper so each entry infers its seed type from its schema (in the style of tRPC procedures). */
export const command = <Seed, Answer extends z.ZodType>(definition: CommandDefinition<Seed, Answer>): CommandDefinition<Seed, Answer> => definition;

export interface MatchedCommand {
  // biome-ignore lint/suspicious/noExplicitAny: a registry holds commands of every seed type; each checks its own seed
  definition: CommandDefinition<any, z.ZodType>;
  params: Record<string, string>;
}

export class CommandRegistry {
  // biome-ignore lint/suspicious/noExplicitAny: as in MatchedCommand
  constructor(readonly definitions: readonly CommandDefinition<any, z.ZodType>[]) {
    const grammars = new Set<string>();
    const examples = new Set<string>();
    for (const d of definitions) {
      if (grammars.has(d.grammar)) throw new Error(`command registered twice: ${d.grammar}`);
      grammars.add(d.grammar);
      for (const { name } of d.examples) {
        if (examples.has(name)) throw new Error(`example named twice: ${name}`);
        examples.add(name);
      }
    }
  }

  match(commandString: string): MatchedCommand | null {
    for (const definition of this.definitions) {
      const m = definition.pattern.exec(commandString);
      if (m) return { definition, params: { ...m.groups } };
    }
    return null;
  }

  /** Authorise, validate the seed and run the matched command. */
  async run(ctx: CommandContext, matched: MatchedCommand, rawSeed: unknown): Promise<Record<string, unknown>> {
    const seed = this.admit(ctx, matched, rawSeed);
    return (await matched.definition.handler(ctx, matched.params, seed)) as Record<string, unknown>;
  }

  /**
   * After a run whose outcome is unknown: what it stored, as its answer (`stored`); `absent` when
   * nothing is stored under its reference; `unknown` when the command cannot look itself up.
   */
  async recover(ctx: CommandContext, matched: MatchedCommand, rawSeed: unknown): Promise<Recovery> {
    const { definition, params } = matched;
    if (!definition.recover) return { outcome: "unknown" };
    const answer = await definition.recover(ctx, params, this.admit(ctx, matched, rawSeed));
    if (answer === undefined) return { outcome: "unknown" };
    return answer === null ? { outcome: "absent" } : { outcome: "stored", answer: answer as Record<string, unknown> };
  }

  /** The checks before a command runs: who may run it, and its seed. */
  private admit(ctx: CommandContext, { definition }: MatchedCommand, rawSeed: unknown): unknown {
    if (definition.who === "admin" && !ctx.principal.isAdmin) throw new CommandError(403, adminOnly(definition.grammar));
    if (definition.needsEnrichment && !ctx.principal.enrichmentEnabled) throw new CommandError(403, NOT_ACTIVATED_MESSAGE);
    return definition.seed ? parseWith(definition.seed, rawSeed ?? {}, "seed") : rawSeed;
  }
}

export type Recovery = { outcome: "stored"; answer: Record<string, unknown> } | { outcome: "absent" } | { outcome: "unknown" };
