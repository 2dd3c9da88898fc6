import { z } from "zod";

const intFrom = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

/** The environment, parsed once. Every tunable of the service is here. */
const configSchema = z.object({
  PORT: intFrom(3000),
  /** PostgreSQL (postgres.js) when set; embedded PGlite in DATA_DIR otherwise. */
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().default("./data"),
  /**
   * PostgreSQL connections (docs/operations.md): how long to wait for a new one, when an idle one
   * closes, the most any lives; server-side, the longest a statement (lock waits included) may run
   * and a transaction may sit idle. Together they bound how long a command can wait on the database.
   */
  DATABASE_CONNECT_TIMEOUT_MS: intFrom(5_000),
  DATABASE_IDLE_TIMEOUT_MS: intFrom(60_000),
  DATABASE_MAX_LIFETIME_MS: intFrom(30 * 60_000),
  DATABASE_STATEMENT_TIMEOUT_MS: intFrom(30_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: intFrom(60_000),
  /** Shared rate-limit store for several instances. */
  REDIS_URL: z.string().min(1).optional(),
  /** Requests per partner in any rolling window (spec 8: 60 + 10 burst). */
  RATE_LIMIT_MAX: intFrom(70),
  RATE_LIMIT_WINDOW_MS: intFrom(60_000),
  /** Refusals before or at authentication (bad body, unknown partner, wrong key) per client address, and per claimed partner id, in any rolling window; 55/429 beyond. */
  REFUSAL_LIMIT_MAX: intFrom(300),
  REFUSAL_LIMIT_WINDOW_MS: intFrom(60_000),
  /** Proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For is believed; none by default (src/http/client-address.ts). */
  TRUSTED_PROXIES: z.string().default(""),
  /** Commands in flight at once; past it the answer is 35/503 and nothing is stored. */
  MAX_IN_FLIGHT: intFrom(256),
  /** After a lost connection left a command's outcome unknown: how long to wait for the database to look it up (docs/reliability.md). */
  OUTCOME_WAIT_MS: intFrom(5_000),
  /** Largest request body accepted on POST / (55/413 beyond). */
  MAX_BODY_BYTES: intFrom(8 * 1024 * 1024),
  /**
   * How fast a request body must arrive (src/http/body.ts): within BODY_TIMEOUT_MS in all and, after
   * a head start of five seconds, at BODY_MIN_BYTES_PER_SECOND or faster on average; a body that falls
   * behind is cut off (408) and counts as a refusal of its address.
   */
  BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().positive().default(4096),
  /** Body bytes of senders not known yet, held at once across all senders; past it such bodies are answered 35/503. */
  UNIDENTIFIED_BODY_BYTES: intFrom(64 * 1024 * 1024),
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
  /** How long a webhook receiver may take to answer before the attempt counts as failed. */
  WEBHOOK_TIMEOUT_MS: intFrom(10_000),
  /** Allow webhook URLs on loopback and private networks (local development and tests only). */
  WEBHOOK_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false"),
  /** Scale of the retry schedule (1 = 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h); tests shrink it. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().default(1),
  /** An endpoint failing without a success for this long is disabled. */
  WEBHOOK_DISABLE_AFTER_MS: intFrom(5 * 24 * 3_600_000),
  /** Days after a missed installment's due date before its plan lapses (the default of new plans). */
  FINANCING_GRACE_DAYS: intFrom(7),
  /** How often the background loop runs payment runLapse. */
  LAPSE_INTERVAL_MS: intFrom(3_600_000),
  /** How often the background loop marks policies whose cover ended as expired (a minute: transit cover ends on arrival). */
  EXPIRY_INTERVAL_MS: intFrom(60_000),
  /**
   * Live wallet funding (docs/funding.md): the payment provider ("sandbox" is the only one built in:
   * it behaves like Paystack), the secret its callbacks are signed with (HMAC-SHA512; the default is
   * the sandbox's published development secret, never a real provider's), how long a pending funding
   * may wait for the money, how long before the background check asks the provider about a funding
   * whose callback never came, how often it runs, and the amount from which an administrator's manual
   * confirmation needs a second administrator (four eyes; ₦1,000,000 by default).
   */
  PAYMENT_PROVIDER: z.enum(["sandbox"]).default("sandbox"),
  PAYMENT_PROVIDER_SECRET: z.string().min(16).default("sk_sandbox_development_secret_not_for_production"),
  FUNDING_EXPIRY_MINUTES: intFrom(24 * 60),
  FUNDING_CHECK_AFTER_MS: intFrom(10 * 60_000),
  FUNDING_CHECK_INTERVAL_MS: intFrom(60_000),
  FUNDING_FOUR_EYES_KOBO: intFrom(100_000_000),
  /**
   * Claim payouts (docs/payouts.md): the money-out provider ("sandbox" is the only one built in: it
   * behaves like Paystack transfers; test-mode claims always use it) and the secret its callbacks are
   * signed with (HMAC-SHA512; the default is the sandbox's published development secret, never a real
   * provider's: set your own wherever real money leaves).
   */
  PAYOUT_PROVIDER: z.enum(["sandbox"]).default("sandbox"),
  PAYOUT_PROVIDER_SECRET: z.string().min(16).default("sk_sandbox_payouts_development_secret_not_for_production"),
  /**
   * The payout check (docs/claims.md, "Payout"): a payout still queued, or pending without its
   * callback, this long after its last change is sent again or asked about at the provider; the
   * check runs at most every PAYOUT_CHECK_INTERVAL_MS in each process.
   */
  PAYOUT_CHECK_AFTER_MS: intFrom(20_000),
  PAYOUT_CHECK_INTERVAL_MS: intFrom(10_000),
  /**
   * The claims clock (docs/claims.md, "The clock"): a claim is settled within CLAIM_SETTLEMENT_DAYS
   * calendar days of its notification (the Nigerian Insurance Industry Reform Act 2025, s.210: never
   * later than 60); its discharge voucher is issued within CLAIM_VOUCHER_WORKING_DAYS working days of
   * liability being admitted (market-conduct rules: 5). A deadline is "due soon" CLAIM_DUE_SOON_DAYS
   * (settlement) or CLAIM_VOUCHER_DUE_SOON_DAYS (voucher) calendar days before it; a late settlement
   * carries simple interest at CLAIM_LATE_INTEREST_BASIS_POINTS a year (2,700: 27 %, the Central Bank's
   * monetary policy rate when this was written). The background check looks every CLAIM_CLOCK_INTERVAL_MS.
   */
  CLAIM_SETTLEMENT_DAYS: z.coerce.number().int().positive().default(60),
  CLAIM_VOUCHER_WORKING_DAYS: z.coerce.number().int().positive().default(5),
  CLAIM_DUE_SOON_DAYS: intFrom(7),
  CLAIM_VOUCHER_DUE_SOON_DAYS: intFrom(2),
  CLAIM_LATE_INTEREST_BASIS_POINTS: intFrom(2_700),
  /** The most days, in all, that waiting for the partner's information may stop a claim's settlement clock. */
  CLAIM_PAUSE_MAX_DAYS: intFrom(30),
  CLAIM_CLOCK_INTERVAL_MS: intFrom(60_000),
  /**
   * The complaints clock (docs/complaints.md, "The clock"; NAICOM's complaints guidelines as far as
   * docs/complaints.md could tell): a complaint is acknowledged within COMPLAINT_ACK_WORKING_DAYS
   * working days of its receipt and resolved within COMPLAINT_RESOLUTION_DAYS calendar days; it is
   * "due soon" COMPLAINT_DUE_SOON_DAYS days before a deadline.
   */
  COMPLAINT_ACK_WORKING_DAYS: z.coerce.number().int().positive().default(2),
  COMPLAINT_RESOLUTION_DAYS: z.coerce.number().int().positive().default(14),
  COMPLAINT_DUE_SOON_DAYS: intFrom(3),
  /**
   * Authority over claims (docs/claims.md, "Authority"): the most, in kobo, an assessor and a claims
   * manager may decide alone (what an approval makes payable, or what a rejection refuses: the amount
   * claimed); the head of claims has no limit. An API key decides with an assessor's authority.
   */
  CLAIM_AUTHORITY_ASSESSOR_KOBO: intFrom(100_000_000),
  CLAIM_AUTHORITY_MANAGER_KOBO: intFrom(1_000_000_000),
  /**
   * Fraud signals (docs/claims.md, "Fraud signals"): the key of the keyed hashes (HMAC-SHA256) that
   * compare claimants' and insured items' identifiers across partners, unset: one made once and kept in
   * the database; an incident within CLAIM_SIGNAL_EARLY_DAYS days of the cover's first day is flagged;
   * a claim whose flags score CLAIM_SIGNAL_REVIEW_SCORE or more needs a second reviewer.
   */
  SIGNALS_KEY: z.string().min(32).optional(),
  CLAIM_SIGNAL_EARLY_DAYS: intFrom(7),
  CLAIM_SIGNAL_REVIEW_SCORE: z.coerce.number().int().positive().default(40),
  /**
   * The outbox of messages (docs/messages.md). E-mail: over SMTP to SMTP_URL (smtp://user:pass@relay:587,
   * smtps://… for TLS from the start) from MAIL_FROM; unset, the embedded mailbox keeps every e-mail in
   * the database for the operator's Messages page. SMS: through SMS_PROVIDER ("sandbox" is the only one
   * built in: it behaves like Termii), whose delivery reports are signed with SMS_PROVIDER_SECRET
   * (HMAC-SHA512), sent as SMS_SENDER_ID (3–11 letters, digits or spaces). Delivery: up to
   * MESSAGE_BATCH messages a pass, MESSAGE_CONCURRENCY at once, each attempt within
   * MESSAGE_SEND_TIMEOUT_MS; a failed attempt is tried again after each wait of MESSAGE_RETRY_SCHEDULE_S
   * (seconds, comma-separated) times MESSAGE_RETRY_SCALE (tests shrink it), and fails after the last.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default('"Insurance Partner Service" <no-reply@localhost>'),
  SMS_PROVIDER: z.enum(["sandbox"]).default("sandbox"),
  SMS_PROVIDER_SECRET: z.string().min(16).default("sk_sandbox_sms_development_secret_not_for_production"),
  SMS_SENDER_ID: z
    .string()
    .regex(/^[A-Za-z0-9 ]{3,11}$/, "3 to 11 letters, digits or spaces")
    .default("InsurePtnr"),
  MESSAGE_BATCH: z.coerce.number().int().positive().default(50),
  MESSAGE_CONCURRENCY: z.coerce.number().int().positive().default(10),
  MESSAGE_SEND_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  MESSAGE_RETRY_SCHEDULE_S: z
    .string()
    .regex(/^\d+(,\d+)*$/, "whole seconds, comma-separated")
    .default("60,300,1800,7200,21600,43200"),
  MESSAGE_RETRY_SCALE: z.coerce.number().positive().default(1),
  /**
   * The policyholder's own page (docs/self-service.md): the key its links are signed with (HMAC-SHA256;
   * unset: one made once and kept in the database) and how long a link works.
   */
  SELF_SERVICE_KEY: z.string().min(32).optional(),
  SELF_SERVICE_LINK_HOURS: z.coerce.number().int().positive().default(24),
  /** Signs portal session cookies; unset: a random secret made once and kept in the database. */
  SESSION_SECRET: z.string().min(32).optional(),
  /** How long a portal sign-in lasts. */
  SESSION_TTL_HOURS: intFrom(12),
  /**
   * Sign-in throttling (docs/security.md): after LOGIN_FREE_ATTEMPTS failed sign-ins for one e-mail
   * from one client address, each further attempt from there waits LOGIN_DELAY_MS, doubling with
   * every failure up to LOGIN_MAX_DELAY_MS (a success clears the run; other addresses are not
   * slowed). At most LOGIN_ADDRESS_MAX failures from one address, whatever the e-mails, in any
   * LOGIN_WINDOW_MS.
   */
  LOGIN_FREE_ATTEMPTS: intFrom(5),
  LOGIN_DELAY_MS: intFrom(1_000),
  LOGIN_MAX_DELAY_MS: intFrom(15 * 60_000),
  LOGIN_ADDRESS_MAX: intFrom(100),
  LOGIN_WINDOW_MS: intFrom(15 * 60_000),
  /**
   * Staff e-mails (docs/security.md, "Password links"): a reset link is good for
   * PASSWORD_RESET_TTL_MINUTES, an invitation's for INVITATION_TTL_HOURS. At most
   * PASSWORD_RESET_EMAIL_MAX reset requests for one e-mail (from anywhere) and
   * PASSWORD_RESET_ADDRESS_MAX from one client address (whatever the e-mails) in any PASSWORD_RESET_WINDOW_MS.
   */
  PASSWORD_RESET_TTL_MINUTES: intFrom(60),
  INVITATION_TTL_HOURS: intFrom(72),
  PASSWORD_RESET_EMAIL_MAX: intFrom(3),
  PASSWORD_RESET_ADDRESS_MAX: intFrom(20),
  PASSWORD_RESET_WINDOW_MS: intFrom(60 * 60_000),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`; unset, it is open (docs/operations.md). */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Graceful shutdown (SIGTERM/SIGINT): how long in-flight requests and background passes may take to finish before they are cut off. */
  SHUTDOWN_TIMEOUT_MS: intFrom(25_000),
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
