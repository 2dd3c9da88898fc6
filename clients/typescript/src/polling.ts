/** Spec 3's polling guidance, per product family, and the sleeping helpers of the client. */

export interface PollInterval {
  minMs: number;
  maxMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/**
 * How often to ask for the status of a pending policy (spec 3): vehicle, device and marine every
 * 5–10 s; travel every 10–30 s; credit life and loan guaranty every few minutes (2–5 min here,
 * their manual review takes up to a business day). Families the guidance does not name (goods in
 * transit, health, all risk, fire and burglary: insurer-processed, answered within a minute) are
 * polled like vehicles.
 */
export const POLLING_GUIDANCE: Record<string, PollInterval> = {
  vhcl: { minMs: 5 * SECOND, maxMs: 10 * SECOND },
  phnn: { minMs: 5 * SECOND, maxMs: 10 * SECOND },
  lapt: { minMs: 5 * SECOND, maxMs: 10 * SECOND },
  mexx: { minMs: 5 * SECOND, maxMs: 10 * SECOND },
  mrnn: { minMs: 5 * SECOND, maxMs: 10 * SECOND },
  ltix: { minMs: 10 * SECOND, maxMs: 30 * SECOND },
  crlt: { minMs: 2 * MINUTE, maxMs: 5 * MINUTE },
  lrgg: { minMs: 2 * MINUTE, maxMs: 5 * MINUTE },
};

const OTHER: PollInterval = { minMs: 5 * SECOND, maxMs: 10 * SECOND };

/** The polling interval of a product code (`<ctgry>-<type>-<pckg>`). */
export function pollIntervalFor(productCode: string): PollInterval {
  const family = productCode.split("-")[0] ?? "";
  return POLLING_GUIDANCE[family] ?? OTHER;
}

/** A uniformly random wait in [minMs, maxMs]: jitter keeps many pollers from asking in step. */
export const jittered = ({ minMs, maxMs }: PollInterval, random: () => number = Math.random) => Math.round(minMs + (maxMs - minMs) * random());

/** Wait `ms`, or reject with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
