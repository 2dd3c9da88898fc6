/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { PHOTO_HEAD_BYTES } from "./exif";
export { policyIdentifiers } from "./identifiers";
export { signalsCard } from "./presenter";
export type { ClaimSignals } from "./rules";
export { claimSignalScores, claimSignals, type FlagInput, flagClaim, newClaimSignals, type SignalSettings, signalSettings } from "./service";
export { signalsAnswer, wireSignals } from "./wire";
