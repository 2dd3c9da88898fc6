/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { configuredRegistry, type VehicleRegistry } from "./registry";
export { currentWatMonth, registryAnswer, usageStatement, watMonth } from "./service";
export { type VinDecoder, validVin, vinDecoderAt } from "./vin";
