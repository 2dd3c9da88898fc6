import type { Answer } from "./types.js";

/** Every error the client throws (except an abort, which rethrows the signal's reason). */
export class PartnerClientError extends Error {
  constructor(
    message: string,
    /** The command string that failed. */
    readonly command: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The service refused the command: exctnFdbck id 55 (spec 7). Fix the request; the client never
 * repeats it (except 429, retried a bounded number of times first: see {@link RateLimited}).
 */
export class CommandRefused extends PartnerClientError {
  /** HTTP-equivalent status: 400, 401, 403, 404, 406, 409, 413, 415, 429, 5xx … */
  readonly status: number;
  /** exctnFdbck.id_v4, as the wire names it (the same number as `status`). */
  readonly id_v4: number;
  /** The service's explanation. */
  readonly elbrtn: string;
  /** The field the explanation names (`seed.phoneNo`, `seed.addtnlFact.goodsValue`, `userInfo.id` …), when it names one. */
  readonly field?: string;
  /**
   * The spec says these may be retried later (a vehicle-registry timeout 504, an unreadable VIN
   * catalogue 502, no registry 503): the client does not retry them itself, the caller may.
   */
  readonly transient: boolean;

  constructor(
    command: string,
    /** The whole answer. */
    readonly answer: Answer,
  ) {
    const feedback = answer.exctnFdbck;
    const status = feedback.id_v4 ?? 0;
    const elbrtn = feedback.elbrtn ?? "";
    super(`${command}: ${status} ${elbrtn}`.trim(), command);
    this.status = status;
    this.id_v4 = status;
    this.elbrtn = elbrtn;
    const field = fieldNamedIn(answer);
    if (field) this.field = field;
    this.transient = status === 502 || status === 503 || status === 504;
  }
}

/** 55/429 still answered after the bounded retries (or asking for a longer wait than allowed). */
export class RateLimited extends CommandRefused {
  /** Seconds the service asked to wait (`retryAfter`), when it said. */
  readonly retryAfter?: number;
  constructor(
    command: string,
    answer: Answer,
    readonly attempts: number,
  ) {
    super(command, answer);
    const retryAfter = (answer as { retryAfter?: unknown }).retryAfter;
    if (typeof retryAfter === "number") this.retryAfter = retryAfter;
  }
}

/** exctnFdbck id 35 after the spec's three retries (2 s, 4 s, 8 s): the service stored nothing. */
export class AtCapacity extends PartnerClientError {
  constructor(
    command: string,
    readonly answer: Answer,
    readonly attempts: number,
  ) {
    super(`${command}: the service stayed at capacity (id 35) after ${attempts} attempts; nothing was stored`, command);
  }
}

/**
 * No usable answer: the connection failed, timed out, or something between us and the service
 * (a proxy) answered instead of it. Without an answer nobody knows whether the service carried the
 * command out (`mayHaveBeenApplied` is always true): the client repeated it only when that is safe
 * (see `isSafeToRepeat`); otherwise check before sending it again (list the transactions, the
 * webhook endpoints …).
 */
export class NetworkError extends PartnerClientError {
  constructor(
    command: string,
    message: string,
    readonly attempts: number,
    /** Whether the client considered the command safe to repeat (and so retried it). */
    readonly safeToRepeat: boolean,
    cause?: unknown,
  ) {
    super(
      `${command}: ${message} (after ${attempts} attempt${attempts === 1 ? "" : "s"}${safeToRepeat ? "" : "; not repeated: the command is not safe to repeat"})`,
      command,
      { cause },
    );
  }
  readonly mayHaveBeenApplied = true;
}

/** The request took longer than its timeout. */
export class RequestTimeout extends NetworkError {}

/** The service answered something that is not an envelope answer (not JSON, no exctnFdbck). */
export class UnexpectedAnswer extends NetworkError {
  constructor(
    command: string,
    message: string,
    attempts: number,
    safeToRepeat: boolean,
    readonly httpStatus: number,
    readonly body: string,
  ) {
    super(command, message, attempts, safeToRepeat);
  }
}

/** A webhook request that does not verify: bad or missing signature, stale timestamp, malformed headers. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

const FIELD = /\b((?:seed|userInfo|cmmnd)(?:\.[A-Za-z_$][\w$]*|\[\d+\])*)/;

/** The field an answer names: `exctnFdbck.field` when the service sends one, else the first wire path in `elbrtn`. */
export function fieldNamedIn(answer: Answer): string | undefined {
  const feedback = answer.exctnFdbck as { field?: unknown; elbrtn?: string };
  if (typeof feedback.field === "string" && feedback.field) return feedback.field;
  const match = FIELD.exec(feedback.elbrtn ?? "");
  return match?.[1];
}
