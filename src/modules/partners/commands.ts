import { command } from "../../core/registry";
import { setAccountMode } from "./service";

const modeCommand = (mode: "live" | "test") =>
  command({
    grammar: `set env_${mode}`,
    pattern: new RegExp(`^set env_${mode}$`),
    who: "partner",
    summary: `Switch the account to ${mode} mode (legacy keys follow it; test and live keys stay pinned).`,
    async handler(ctx) {
      await setAccountMode(ctx.db, ctx.principal.partnerId, mode);
      return { mode, keyMode: ctx.principal.keyLabel === "legacy" ? mode : ctx.principal.keyLabel };
    },
  });

export const partnerCommands = [modeCommand("live"), modeCommand("test")];
