import type { z } from "zod";
import type { Database } from "../db/client";
import type { Config } from "../config";
import { CommandError } from "./errors";
import type { Principal } from "./principal";
import { parseWith } from "./validation";

export interface CommandContext {
  db: Database;
  config: Config;
  principal: Principal;
  requestId: string;
  now: () => Date;
}

type Who = "partner" | "admin";

export interface CommandDefinition<Seed = unknown> {
  /** The command as the spec writes it, e.g. "dump ipck_<product_code>*PRMM". */
  grammar: string;
  /** Matches cmmnd.cmmnd; named groups become `params`. */
  pattern: RegExp;
  who: Who;
  /** Enrichment commands need activation on the account (spec 5.8: 403 otherwise). */
  needsEnrichment?: boolean;
  /** Validates cmmnd.seed (absent seed is validated as {}); omitted → the handler gets the raw seed. */
  seed?: z.ZodType<Seed>;
  summary: string;
  handler(ctx: CommandContext, params: Record<string, string>, seed: Seed): Promise<Record<string, unknown>>;
}

/** Typed helper so each entry infers its seed type from its schema (in the style of tRPC procedures). */
export const command = <Seed>(definition: CommandDefinition<Seed>): CommandDefinition<Seed> => definition;

export interface MatchedCommand {
  definition: CommandDefinition<any>;
  params: Record<string, string>;
}

export class CommandRegistry {
  constructor(readonly definitions: readonly CommandDefinition<any>[]) {
    const grammars = new Set<string>();
    for (const d of definitions) {
      if (grammars.has(d.grammar)) throw new Error(`command registered twice: ${d.grammar}`);
      grammars.add(d.grammar);
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
    const { definition, params } = matched;
    if (definition.who === "admin" && !ctx.principal.isAdmin)
      throw new CommandError(403, `command '${definition.grammar}' is available only to the operator's administrator account`);
    if (definition.needsEnrichment && !ctx.principal.enrichmentEnabled)
      throw new CommandError(403, "enrichment is not activated on this account: ask the operator to activate it");
    const seed = definition.seed ? parseWith(definition.seed, rawSeed ?? {}, "seed") : rawSeed;
    return definition.handler(ctx, params, seed);
  }
}
