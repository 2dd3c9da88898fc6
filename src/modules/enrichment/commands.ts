import { resolve } from "node:path";
import { command } from "../../core/registry";
import { configuredRegistry } from "./registry";
import { checkVehicleRegistry, decodeVin } from "./service";
import { vinDecoderAt } from "./vin";

export const enrichmentCommands = [
  command({
    grammar: "enrch niid_vehicle",
    pattern: /^enrch niid_vehicle$/,
    who: "partner",
    needsEnrichment: true,
    summary: "Vehicle-registry insurance check by plate or policy number (150 naira per billed call; 5-minute cache, free).",
    async handler(ctx, _params, seed) {
      const { status, details, from_cache, message } = await checkVehicleRegistry(ctx.db, configuredRegistry(ctx.config), ctx.principal, seed, ctx.now());
      return { status, details, from_cache, message };
    },
  }),
  command({
    grammar: "enrch vin_vehicle",
    pattern: /^enrch vin_vehicle$/,
    who: "partner",
    needsEnrichment: true,
    summary: "Decode a 17-character VIN offline from NHTSA's vPIC catalogue (free; usage logged).",
    async handler(ctx, _params, seed) {
      return { ...(await decodeVin(ctx.db, vinDecoderAt(resolve(ctx.config.VIN_DATABASE)), ctx.principal, seed, ctx.now())) };
    },
  }),
];
