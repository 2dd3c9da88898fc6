/**
 * The sandbox's underwriters: which insurer carries each product family is the operator's
 * arrangement with its insurers, so this is a simulated assignment (docs/reporting.md). Each family
 * names its own in its folder (`insurer`); health is sold per HMO, whose code is the product type
 * (src/products/health/insurers.ts). Replace with the real treaty when the insurers are onboarded.
 */
import type { Insurer } from "./types";

export const SANDBOX_INSURERS = {
  leadway: { code: "ldwy", name: "Leadway Assurance" },
  axaMansard: { code: "axmi", name: "AXA Mansard Insurance" },
  aiico: { code: "aico", name: "AIICO Insurance" },
  custodian: { code: "cstd", name: "Custodian and Allied Insurance" },
  nem: { code: "nemi", name: "NEM Insurance" },
} as const satisfies Record<string, Insurer>;
