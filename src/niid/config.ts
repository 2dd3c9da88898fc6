import { z } from "zod";

const intFrom = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

/** The verification service's environment, parsed once (its own variables: it runs as a separate process). */
const niidConfigSchema = z
  .object({
    NIID_PORT: z.coerce.number().int().min(0).max(65_535).default(3001),
    /** `sandbox`: the built-in registry; `none`: no registry connected, lookups answer 503. */
    NIID_REGISTRY: z.enum(["sandbox", "none"]).default("sandbox"),
    /** How long a lookup that reaches the sandbox takes: random in [min, max] (the real registry: 12–17 s). */
    NIID_LATENCY_MIN_MS: intFrom(12_000),
    NIID_LATENCY_MAX_MS: intFrom(17_000),
    /** Where published sandbox records survive restarts; in memory only when unset. */
    NIID_SANDBOX_FILE: z.string().min(1).optional(),
    /** Make every sandbox lookup fail this way (502 or 504), for demos and tests. */
    NIID_FAULT: z.enum(["unexpected", "token_timeout"]).optional(),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  })
  .refine((c) => c.NIID_LATENCY_MAX_MS >= c.NIID_LATENCY_MIN_MS, {
    path: ["NIID_LATENCY_MAX_MS"],
    message: "must not be below NIID_LATENCY_MIN_MS",
  });

export type NiidConfig = z.infer<typeof niidConfigSchema>;

export function loadNiidConfig(env: Record<string, string | undefined> = process.env): NiidConfig {
  // An empty variable (NIID_FAULT= in an env file) means unset.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = niidConfigSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration: ${issue.path.join(".")}: ${issue.message}`);
  }
  return parsed.data;
}
