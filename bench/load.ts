/** One load run with autocannon: a fresh body per request, and every answer classified. */
import autocannon from "autocannon";

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds of load; ignored when `amount` is set. */
  duration?: number;
  /** A fixed number of requests instead of a duration. */
  amount?: number;
  /** Requests a second over all connections (paced load, latency corrected for coordinated omission); as fast as answered when absent. */
  rate?: number;
  /** The JSON body of the next request. */
  nextBody: () => string;
  /** The outcome of one answer: `ok` when it is what the scenario expects, any other label counts as a failure. */
  classify: (status: number, body: string) => string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers received, by outcome label (`ok` and the failure labels). */
  outcomes: Record<string, number>;
  answered: number;
  failed: number;
  /** Socket errors and timeouts: requests that got no answer at all. */
  errors: number;
  /** A few failed answers, to show what went wrong. */
  failureSamples: string[];
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const outcomes: Record<string, number> = {};
  const failureSamples: string[] = [];
  // Timed here: autocannon stops on whole-second ticks, so its own duration overstates short `amount` runs.
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    ...(options.rate ? { overallRate: options.rate } : {}),
    timeout: 30,
    method: "POST",
    headers: { "content-type": "application/json" },
    requests: [
      {
        setupRequest: (request) => ({ ...request, body: options.nextBody() }),
        onResponse: (status, body) => {
          lastAnswerAt = performance.now();
          const outcome = options.classify(status, body);
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
          if (outcome !== "ok" && failureSamples.length < 3) failureSamples.push(`${status} ${body.slice(0, 300)}`);
        },
      },
    ],
  });
  const answered = Object.values(outcomes).reduce((a, b) => a + b, 0);
  return {
    requestsPerSecond: lastAnswerAt > startedAt ? answered / ((lastAnswerAt - startedAt) / 1000) : 0,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    outcomes,
    answered,
    failed: answered - (outcomes.ok ?? 0),
    errors: result.errors + result.timeouts,
    failureSamples,
  };
}

/** The command service's answers: HTTP 200 with exctnFdbck.id 75 is `ok`; otherwise `<id>/<id_v4>`. */
export function classifyCommandAnswer(status: number, body: string): string {
  if (status !== 200) return `http ${status}`;
  try {
    const feedback = (JSON.parse(body) as { exctnFdbck?: { id?: unknown; id_v4?: unknown } }).exctnFdbck;
    return feedback?.id === 75 ? "ok" : `${String(feedback?.id)}/${String(feedback?.id_v4)}`;
  } catch {
    return "not json";
  }
}

/** The bare baseline's answers: HTTP 200 with `{ ok: true }`. */
export function classifyBareAnswer(status: number, body: string): string {
  if (status !== 200) return `http ${status}`;
  try {
    return (JSON.parse(body) as { ok?: unknown }).ok === true ? "ok" : "unexpected body";
  } catch {
    return "not json";
  }
}
