import { z } from "zod";

const intFrom = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

/** The environment, parsed once. Every tunable of the service is here. */
const configSchema = z.object({
  PORT: intFrom(3000),
  /** PostgreSQL (postgres.js) when set; embedded PGlite in DATA_DIR otherwise. */
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().default("./data"),
  /** Shared rate-limit store for several instances. */
  REDIS_URL: z.string().min(1).optional(),
  /** Requests per partner in any rolling window (spec 8: 60 + 10 burst). */
  RATE_LIMIT_MAX: intFrom(70),
  RATE_LIMIT_WINDOW_MS: intFrom(60_000),
  /** Commands in flight at once; past it the answer is 35/503 and nothing is stored. */
  MAX_IN_FLIGHT: intFrom(256),
  /** Largest request body accepted on POST / (55/413 beyond). */
  MAX_BODY_BYTES: intFrom(8 * 1024 * 1024),
  /** Largest decoded document (base64 field) accepted. */
  MAX_DOCUMENT_BYTES: intFrom(2 * 1024 * 1024),
  /** Base of links we hand out (certUrl, verification links). */
  PUBLIC_URL: z.string().url().optional(),
  /** Name printed on certificates for the built-in simulated insurer. */
  INSURER_NAME: z.string().default("Sandbox Insurance Plc"),
  /** How long the simulated insurer takes to answer a live policy. */
  INSURER_DELAY_MS: intFrom(3000),
  /** How often the background loop looks for work. */
  WORKER_INTERVAL_MS: intFrom(500),
  /** Run the background loop in this process (turn off to run it elsewhere). */
  WORKER: z.enum(["true", "false"]).default("true"),
  /** The vehicle verification service (spec 4.4). Unset: `npm start` starts one beside the service on NIID_PORT. */
  NIID_URL: z.string().url().optional(),
  NIID_PORT: intFrom(3001),
  /** Start the verification service beside this one when NIID_URL is unset. */
  NIID_START: z.enum(["true", "false"]).default("true"),
  /** How long to wait for the registry (its first lookup takes 12-17 s). */
  NIID_TIMEOUT_MS: intFrom(30_000),
  /** The decompressed vPIC data set of the VIN decoder (made from the npm package on first use). */
  VIN_DATABASE: z.string().default("./data/vpic.lite.db"),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Create a demo partner and an operator admin on an empty embedded database. */
  SEED_DEMO: z.enum(["true", "false"]).default("true"),
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration: ${issue.path.join(".")}: ${issue.message}`);
  }
  return { ...parsed.data, ...overrides };
}

/** Where our own links point: PUBLIC_URL, else this host on PORT. */
export const publicUrl = (config: Config) => (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, "");
