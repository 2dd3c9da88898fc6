/** exctnFdbck (spec 2.2, 7): the outcome of every command, always with HTTP 200. */
import { clip } from "./validation";

/** The longest elbrtn: explanations name what is wrong; whatever a message quotes, the answer stays small. */
const MAX_ELBRTN = 1000;

export const SUCCESS = 75;
export const AT_CAPACITY = 35;
export const ERROR = 55;

interface ExecutionFeedback {
  id: typeof SUCCESS | typeof AT_CAPACITY | typeof ERROR;
  id_v4: number;
  elbrtn?: string;
}

export type CommandResponse = Record<string, unknown> & { exctnFdbck: ExecutionFeedback };

export const success = (body: Record<string, unknown> = {}): CommandResponse => ({
  ...body,
  exctnFdbck: { id: SUCCESS, id_v4: 200 },
});

export const failure = (status: number, message: string, extra: Record<string, unknown> = {}): CommandResponse => ({
  ...extra,
  exctnFdbck: { id: ERROR, id_v4: status, elbrtn: clip(message, MAX_ELBRTN) },
});

export const atCapacity = (): CommandResponse => ({
  exctnFdbck: {
    id: AT_CAPACITY,
    id_v4: 503,
    elbrtn: "service at capacity; the request was not stored: retry the same request after 2s, 4s and 8s",
  },
});

/**
 * The database was briefly unreachable or did not finish a statement in time (docs/reliability.md,
 * "Unknown outcomes"): 35 as at capacity,
 * since a retry is the remedy, with an elbrtn that says what is known of the request. Every wording
 * begins with DATABASE_LOST, so a client (and the reference) can tell them from capacity.
 */
export const DATABASE_LOST = "the database was temporarily unavailable";

export type LostConnectionOutcome = "not answered" | "not stored" | "unknown";

const lostConnectionWording: Record<LostConnectionOutcome, string> = {
  // Reads, and commands a repeat of which is harmless.
  "not answered": `${DATABASE_LOST} before this request was answered: retry the same request after 2s, 4s and 8s`,
  "not stored": `${DATABASE_LOST} and nothing was stored under this request's reference: retry the same request after 2s, 4s and 8s`,
  unknown:
    `${DATABASE_LOST} while the command was being stored, so its outcome is unknown: read it back by its reference (for a policy, dump ` +
    `…*STATUS) and, if it is not there, retry the same request after 2s, 4s and 8s`,
};

export const databaseLost = (outcome: LostConnectionOutcome, requestId: string): CommandResponse => ({
  exctnFdbck: { id: AT_CAPACITY, id_v4: 503, elbrtn: `${lostConnectionWording[outcome]} (request id ${requestId})` },
});
