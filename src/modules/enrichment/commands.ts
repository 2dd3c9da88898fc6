import { resolve } from "node:path";
import { z } from "zod";
import { type CommandContext, command, NOT_ACTIVATED, refusal } from "../../core/registry";
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

const VALUE_REQUIRED = refusal(400, "seed.value is required");
const VIN_LETTERS = refusal(400, "seed.vin must not contain the letters I, O or Q (they are never used in VINs)");

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
    examples: [
      {
        name: "registry-check",
        title: "A plate the registry knows (any case; spaces and hyphens are ignored)",
        cmmnd: "enrch niid_vehicle",
        seed: { value: "lsd-482 kj" },
        answer: {
          status: "found",
          details: {
            policy_number: "LWY/MTR/2025/986497",
            registration_number: "LSD482KJ",
            chassis_number: "4T1BF1FK7CU902790",
            type_of_cover: "Comprehensive",
            vehicle_make: "Toyota",
            vehicle_model: "Camry",
            expiry_date: "{{registryDate}}",
            licence_status: "Active policy",
            insurer: "Leadway Assurance Company Ltd",
          },
          from_cache: "{{boolean}}",
          message: "",
        },
      },
      {
        name: "registry-not-found",
        title: "A policy number the registry does not know",
        cmmnd: "enrch niid_vehicle",
        seed: { search_type: "policy", value: "XYZ/MTR/2020/000000" },
        answer: { status: "not_found", details: {}, from_cache: "{{boolean}}", message: "no insurance record was found for policy number XYZ/MTR/2020/000000" },
      },
      { name: "registry-no-value", title: "Without a value", cmmnd: "enrch niid_vehicle", seed: { search_type: "registration" }, refusal: VALUE_REQUIRED },
      {
        name: "registry-not-activated",
        title: "On an account without enrichment",
        cmmnd: "enrch niid_vehicle",
        seed: { value: "LSD482KJ" },
        refusal: NOT_ACTIVATED,
      },
    ],
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
    examples: [
      {
        name: "vin",
        title: "A Honda Accord",
        cmmnd: "enrch vin_vehicle",
        seed: { vin: "1HGCM82633A004352" },
        answer: {
          make: "Honda",
          model: "Accord",
          year: "2003",
          bodyClass: "Coupe",
          fuelType: "Gasoline",
          manufacturer: "AMERICAN HONDA MOTOR CO., INC.",
          vehicleType: "Passenger Car",
        },
      },
      { name: "vin-letters", title: "A VIN with the letter O", cmmnd: "enrch vin_vehicle", seed: { vin: "1HGCM82633O004352" }, refusal: VIN_LETTERS },
    ],
    async handler(ctx, _params, seed) {
      return { ...(await decodeVin(ctx.db, vinDecoderAt(resolve(ctx.config.VIN_DATABASE)), callerOf(ctx), seed, ctx.now())) };
    },
  }),
];
