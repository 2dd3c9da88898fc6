// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module "autocannon" {
  namespace autocannon {
    interface RawRequest {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
    }

    interface RequestStep {
      /** Called before every request of this step; returns the request to send. */
      setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest;
      /** Called with every complete response of this step. */
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }

    interface Options {
      url: string;
      connections?: number;
      /** Seconds; ignored when `amount` is set. */
      duration?: number;
      amount?: number;
      /** Requests a second over all connections. */
      overallRate?: number;
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      requests?: RequestStep[];
    }

    /** Percentiles and summary of one histogram (latency in ms, requests per one-second sample). */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
    }

    interface Result {
      /** Seconds, to the hundredth. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      resets: number;
      latency: Histogram;
      requests: Histogram & { sent: number };
      throughput: Histogram;
    }
  }

  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
