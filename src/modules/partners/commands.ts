import { z } from "zod";
import { command } from "../../http/registry";
import { keyActor } from "../audit";
import { modeExamples } from "./examples";
import { setAccountMode } from "./service";

const MODES = ["test", "live"] as const;

const modeCommand = (mode: (typeof MODES)[number]) =>
  command({
    grammar: `set env_${mode}`,
    pattern: new RegExp(`^set env_${mode}$`),
    who: "partner",
    summary: `Switch the account to ${mode} mode (legacy keys follow it; test and live keys stay pinned).`,
    answer: z.object({
      mode: z.enum(MODES).meta({ description: "The account's mode now" }),
      keyMode: z.enum(MODES).meta({ description: "The mode the calling key runs in: its own label for test and live keys, the account's for a legacy key" }),
    }),
    errors: [],
    examples: modeExamples(mode),
    async handler(ctx) {
      await setAccountMode(ctx.db, ctx.principal.partnerId, mode, { actor: keyActor(ctx.principal), now: ctx.now() });
      return { mode, keyMode: ctx.principal.keyLabel === "legacy" ? mode : ctx.principal.keyLabel };
    },
  });

export const partnerCommands = [modeCommand("live"), modeCommand("test")];
