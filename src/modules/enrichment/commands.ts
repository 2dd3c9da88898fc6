import { resolve } from "node:path";
import { z } from "zod";
import { type CommandContext, command, NOT_ACTIVATED, refusal } from "../../http/registry";
import { registryCheckExamples, VALUE_REQUIRED, VIN_LETTERS, vinExamples } from "./examples";
import { registrySeed, vinSeed } from "./model";
import { configuredRegistry } from "./registry";
import { checkVehicleRegistry, decodeVin } from "./service";
import { vinDecoderAt } from "./vin";

/** The calling key: billed in its mode, audited by its label. */
// A partner's system checking vehicles is in the API log; the audit log keeps what people do.
const callerOf = ({ principal }: CommandContext) => ({ partnerId: principal.partnerId, mode: principal.mode });

/** Spec 4.3: every field only when the catalogue knows it. */
const known = () => z.string().optional();
const vinAnswer = z.object({
  make: known(),
  model: known(),
  year: known(),
  bodyClass: known(),
  engineDisplacement: known().meta({ description: "Litres" }),
  fuelType: known(),
  manufacturer: known(),
  plantCountry: known(),
  vehicleType: known(),
});

export const enrichmentCommands = [
  command({
    grammar: "enrch niid_vehicle",
    pattern: /^enrch niid_vehicle$/,
    who: "partner",
    needsEnrichment: true,
    summary: "Vehicle-registry insurance check by plate or policy number (150 naira per billed call; 5-minute cache, free).",
    documentedSeed: registrySeed,
    answer: z.object({
      status: z.enum(["found", "not_found"]),
      details: z.record(z.string(), z.string()).meta({
        description: "The registry's record: policy_number, registration_number, type_of_cover, vehicle_make, vehicle_model, expiry_date … ({} when not found)",
      }),
      from_cache: z.boolean().meta({ description: "Answered from the five-minute cache (free)" }),
      message: z.string().meta({ description: "Empty when found" }),
    }),
    errors: [
      NOT_ACTIVATED,
      VALUE_REQUIRED,
      refusal(
        400,
        "seed.value must contain a letter or digit: a plate or policy number of only spaces, hyphens or punctuation matches no vehicle",
        'a value that is empty once normalised, e.g. "- -"',
      ),
      refusal(400, 'seed.search_type must be one of "registration", "policy"; received <value>'),
      refusal(504, "vehicle registry check timed out <detail>: retry"),
      refusal(502, "vehicle registry <is unreachable|gave an unexpected answer>: retry<detail>"),
      refusal(503, "vehicle registry is not configured<detail>"),
    ],
    examples: registryCheckExamples,
    async handler(ctx, _params, seed) {
      const { status, details, from_cache, message } = await checkVehicleRegistry(ctx.db, configuredRegistry(ctx.config), callerOf(ctx), seed, ctx.now());
      return { status, details, from_cache, message };
    },
  }),
  command({
    grammar: "enrch vin_vehicle",
    pattern: /^enrch vin_vehicle$/,
    who: "partner",
    needsEnrichment: true,
    summary: "Decode a 17-character VIN offline from NHTSA's vPIC catalogue (free; usage logged).",
    documentedSeed: vinSeed,
    answer: vinAnswer,
    errors: [
      NOT_ACTIVATED,
      refusal(400, "seed.vin is required: a 17-character VIN"),
      refusal(400, "seed.vin must be exactly 17 characters; received <length>"),
      VIN_LETTERS,
      refusal(400, "seed.vin has an invalid check digit: position 9 is <digit>, the VIN's characters give <digit>"),
      refusal(502, "VIN lookup is unavailable: the vehicle catalogue could not be <read|queried>; retry"),
    ],
    examples: vinExamples,
    async handler(ctx, _params, seed) {
      return { ...(await decodeVin(ctx.db, vinDecoderAt(resolve(ctx.config.VIN_DATABASE)), callerOf(ctx), seed, ctx.now())) };
    },
  }),
];
