import type { CapacityGate } from "../core/capacity";
import type { Config } from "../core/config";
import { CommandError } from "../core/errors";
import { type JsonLimits, jsonShapeProblem } from "../core/json-shape";
import { clip, fieldPath } from "../core/validation";

/**
 * How fast a body must arrive (BODY_TIMEOUT_MS, BODY_MIN_BYTES_PER_SECOND): within `timeoutMs` in
 * all, and after a head start at `minBytesPerSecond` or faster on average, so a sender trickling a
 * byte a second is cut off in seconds, not days.
 */
export interface BodyPace {
  timeoutMs: number;
  minBytesPerSecond: number;
}

export const bodyPace = (config: Pick<Config, "BODY_TIMEOUT_MS" | "BODY_MIN_BYTES_PER_SECOND">): BodyPace => ({
  timeoutMs: config.BODY_TIMEOUT_MS,
  minBytesPerSecond: config.BODY_MIN_BYTES_PER_SECOND,
});

/** Before the minimum rate applies: room for a lost packet's retransmissions (1, 2 s) between the headers and the body. */
export const HEAD_START_MS = 5_000;

/**
 * The most of a body read before its sender is known: a larger body must name its sender
 * (the envelope's userInfo; a session cookie; a signature) within these bytes.
 */
export const IDENTIFY_WITHIN_BYTES = 64 * 1024;

/**
 * The first bytes of every body are read without holding any of UNIDENTIFIED_BODY_BYTES: every
 * command without a document fits, and they cost no more than the connection carrying them. So
 * senders filling that pool with large bodies never turn away a partner's small one.
 */
const FREE_BYTES = 8 * 1024;

/** The body came too slowly: cut off, and counted as a refusal of its address. */
class SlowBody extends CommandError {
  constructor(pace: BodyPace, elapsedMs: number, declared: number | undefined, received?: number) {
    const arrived =
      received === undefined ? `not all of its ${declared} bytes` : declared === undefined ? `${received} bytes` : `${received} of its ${declared} bytes`;
    super(
      408,
      `request body arrived too slowly: ${arrived} in ${(elapsedMs / 1000).toFixed(1)} s; a body must arrive within ${HEAD_START_MS / 1000} s ` +
        `and a second more for every ${pace.minBytesPerSecond} bytes, and within ${pace.timeoutMs / 1000} s in all`,
    );
  }
}

/** What a person is told when UNIDENTIFIED_BODY_BYTES turned their request away. */
export const BUSY = "The service is busy. Please try again in a moment.";

/** The bytes of bodies of unknown senders are at their limit: answered as at capacity (35/503), nothing read or stored. */
export class UnidentifiedBodiesAtCapacity extends Error {
  constructor() {
    super("request bodies of senders not yet known are at their limit (UNIDENTIFIED_BODY_BYTES)");
  }
}

/** The client closed its connection before its body ended: a refusal like any unreadable body, not a fault of ours. */
const connectionLost = (): never => {
  throw new CommandError(400, "request body was not received whole: the connection closed before it ended");
};

/** How long a body of `received` bytes may have taken to arrive. */
const allowedMs = (pace: BodyPace, received: number) => Math.min(pace.timeoutMs, HEAD_START_MS + (received * 1000) / pace.minBytesPerSecond);

/** `work`, or `onLate()` thrown when it takes longer than `ms`. */
async function within<T>(work: Promise<T>, ms: number, onLate: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onLate()), Math.max(0, ms));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface BodyLimits {
  maxBytes: number;
  pace: BodyPace;
  /** While the sender is not known, the body's bytes past its first few KiB hold this gate's UNIDENTIFIED_BODY_BYTES. */
  unidentified?: CapacityGate;
}

/**
 * A request body being read within bounds (docs/security.md, "What a request costs"): at most
 * `maxBytes` (413 beyond, without reading past them), at the pace (408 when it falls behind), and,
 * until `identified()`, holding its share of the bytes of unknown senders (35 when none is left).
 * `release()` when done with it, whatever happened. `complete` says whether all of it arrived: a
 * request answered before that has its connection closed rather than its body drained.
 */
export class IncomingBody {
  private held = 0;
  private gate: CapacityGate | undefined;
  complete = false;

  constructor(
    private readonly request: Request,
    private readonly limits: BodyLimits,
  ) {
    this.gate = limits.unidentified;
  }

  /** The sender is known: what it sends no longer counts as an unknown sender's. */
  identified(): void {
    this.release();
    this.gate = undefined;
  }

  release(): void {
    this.gate?.releaseUnidentified(this.held);
    this.held = 0;
  }

  private hold(received: number): void {
    if (!this.gate) return;
    const wanted = Math.max(0, received - FREE_BYTES);
    if (wanted <= this.held) return;
    if (!this.gate.holdUnidentified(wanted - this.held)) throw new UnidentifiedBodiesAtCapacity();
    this.held = wanted;
  }

  /**
   * The body as text. With `check`, a body over IDENTIFY_WITHIN_BYTES is checked once that much has
   * arrived and again each time what has arrived doubles (twice the work of one pass at most), so a
   * body refused for its shape or its sender is refused before the rest of it is read.
   */
  async text(check?: (received: string) => void | Promise<void>): Promise<string> {
    const declared = this.declared();
    // Small and of a declared length: read whole (the server reads exactly that many bytes), within the time its length allows.
    if (declared !== undefined && declared <= IDENTIFY_WITHIN_BYTES) {
      const started = performance.now();
      this.hold(declared);
      const { pace } = this.limits;
      const text = await within(
        this.request.text().catch(connectionLost),
        allowedMs(pace, declared),
        () => new SlowBody(pace, performance.now() - started, declared),
      );
      this.complete = true;
      return text;
    }
    const decoder = new TextDecoder();
    let text = "";
    let nextCheck = IDENTIFY_WITHIN_BYTES;
    for await (const total of this.chunks((chunk) => {
      text += decoder.decode(chunk, { stream: true });
    }))
      if (check && total >= nextCheck) {
        await check(text);
        nextCheck = total * 2;
      }
    return text + decoder.decode();
  }

  /** The body as the bytes that arrived (a signature is over them, whatever their encoding). */
  async bytes(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for await (const _ of this.chunks((chunk) => parts.push(chunk)));
    return Buffer.concat(parts);
  }

  /** Wait for the whole body within the limits, keeping none of it (a copy's, whose original is read afterwards). */
  async arrival(): Promise<void> {
    for await (const _ of this.chunks(() => {}));
  }

  /** The declared length, refusing one over the limit before anything is read. */
  private declared(): number | undefined {
    const length = this.request.headers.get("content-length");
    const declared = length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
    if (declared !== undefined && declared > this.limits.maxBytes) throw this.tooLarge();
    return declared;
  }

  private tooLarge() {
    return new CommandError(413, `request body is too large: at most ${this.limits.maxBytes} bytes are accepted`);
  }

  /**
   * The body chunk by chunk, each handed to `take`, at the pace and within the size: yields the bytes
   * received so far. A reader left early (a refusal) cancels the rest.
   */
  private async *chunks(take: (chunk: Uint8Array) => void): AsyncGenerator<number> {
    const { pace } = this.limits;
    const started = performance.now();
    const declared = this.declared();
    if (!this.request.body) {
      this.complete = true;
      return;
    }
    const reader = this.request.body.getReader();
    let total = 0;
    try {
      for (;;) {
        const wait = started + allowedMs(pace, total) - performance.now();
        const { done, value } = await within(reader.read().catch(connectionLost), wait, () => new SlowBody(pace, performance.now() - started, declared, total));
        if (done) break;
        total += value.byteLength;
        if (total > this.limits.maxBytes) throw this.tooLarge();
        this.hold(total);
        take(value);
        yield total;
      }
      this.complete = true;
    } finally {
      // Not awaited: a copy's cancel settles only once the original is cancelled too (a tee's two branches).
      if (!this.complete) reader.cancel().catch(() => {});
    }
  }
}

/** The whole body as text, read within `limits`. */
export const readBoundedBody = (request: Request, limits: BodyLimits): Promise<string> => readWhole(request, limits, (body) => body.text());

/** The whole body as bytes, read within `limits`. */
export const readBoundedBytes = (request: Request, limits: BodyLimits): Promise<Uint8Array> => readWhole(request, limits, (body) => body.bytes());

async function readWhole<T>(request: Request, limits: BodyLimits, read: (body: IncomingBody) => Promise<T>): Promise<T> {
  const incoming = new IncomingBody(request, limits);
  try {
    return await read(incoming);
  } finally {
    incoming.release();
  }
}

/**
 * A form or JSON body of a page reachable without a session, parsed within bounds: at most
 * `limits.maxBytes` read (413 beyond), at the pace, and a JSON body's shape held to `shape` before it
 * is parsed. The result is what Elysia's own parsers give a route: field name → value.
 */
export async function readBoundedForm(request: Request, limits: BodyLimits, shape: JsonLimits): Promise<unknown> {
  const text = await readBoundedBody(request, limits);
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") {
    const problem = jsonShapeProblem(text, shape);
    if (problem)
      throw new CommandError(
        problem.status,
        `The form ${problem.path.length ? `field ${clip(fieldPath("", problem.path.slice(0, 8)), 60)}` : "body"} ${problem.problem}.`,
      );
    try {
      return JSON.parse(text);
    } catch {
      throw new CommandError(400, "the request could not be read: send the form again");
    }
  }
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  if (type === "multipart/form-data") {
    const form = await new Response(text, { headers: { "content-type": request.headers.get("content-type")! } }).formData().catch(() => {
      throw new CommandError(400, "the request could not be read: send the form again");
    });
    return Object.fromEntries(form.entries());
  }
  return text;
}
