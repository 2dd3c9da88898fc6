import type { RegistryCheckProps } from "../../../views/enrichment/vehicle";
import { type Caller, type RegistryCheck, registryCheckPrice } from "./service";

/** A registry answer as the check section shows it, with what it was billed in this mode. */
export const checkResult = (answer: RegistryCheck, mode: Caller["mode"]): NonNullable<RegistryCheckProps["result"]> => ({
  status: answer.status,
  details: answer.details,
  message: answer.message,
  fromCache: answer.from_cache,
  billedKobo: registryCheckPrice(answer.from_cache, mode),
  mode,
});
