/**
 * The examples of the partners commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app.
 */
import type { CommandExample } from "../../http/registry";

/** set env_<mode>: one set per mode. */
export const modeExamples = (mode: "test" | "live"): readonly CommandExample[] => [
  { name: `mode-${mode}`, title: `With a legacy key, which follows the account`, cmmnd: `set env_${mode}`, key: "legacy", answer: { mode, keyMode: mode } },
  { name: `mode-${mode}-pinned`, title: "With a test key, which stays in test mode", cmmnd: `set env_${mode}`, answer: { mode, keyMode: "test" } },
];
