import { z } from "zod";
import { command } from "../../core/registry";
import { keyActor } from "../audit/service";
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
    examples: [
      { name: `mode-${mode}`, title: `With a legacy key, which follows the account`, cmmnd: `set env_${mode}`, key: "legacy", answer: { mode, keyMode: mode } },
      { name: `mode-${mode}-pinned`, title: "With a test key, which stays in test mode", cmmnd: `set env_${mode}`, answer: { mode, keyMode: "test" } },
    ],
    async handler(ctx) {
      await setAccountMode(ctx.db, ctx.principal.partnerId, mode, { actor: keyActor(ctx.principal), now: ctx.now() });
      return { mode, keyMode: ctx.principal.keyLabel === "legacy" ? mode : ctx.principal.keyLabel };
    },
  });

export const partnerCommands = [modeCommand("live"), modeCommand("test")];
