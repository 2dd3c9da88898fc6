/**
 * The examples of the enrichment commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, NOT_ACTIVATED, refusal } from "../../http/registry";

export const VALUE_REQUIRED = refusal(400, "seed.value is required");
export const VIN_LETTERS = refusal(400, "seed.vin must not contain the letters I, O or Q (they are never used in VINs)");

/** enrch niid_vehicle */
export const registryCheckExamples: readonly CommandExample[] = [
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
];

/** enrch vin_vehicle */
export const vinExamples: readonly CommandExample[] = [
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
];
