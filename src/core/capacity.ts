/**
 * What the service takes on at once (design: capacity; docs/security.md, "What a request costs"):
 * commands in flight, past which the endpoint answers 35/503 at once, and the bytes of request
 * bodies whose sender is not known yet, across all senders, past which such bodies are refused the
 * same way. A command takes its slot only once its body has arrived and its sender is known.
 */
export class CapacityGate {
  private inFlight = 0;
  private unidentified = 0;
  constructor(
    readonly limit: number,
    /** UNIDENTIFIED_BODY_BYTES: body bytes of senders not yet known, held at once. */
    readonly unidentifiedLimit = Number.POSITIVE_INFINITY,
  ) {}

  tryEnter(): boolean {
    if (this.inFlight >= this.limit) return false;
    this.inFlight++;
    return true;
  }

  leave(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  get current(): number {
    return this.inFlight;
  }

  /** Hold `bytes` more of a body whose sender is not known yet; false (nothing held) when that would pass the limit. */
  holdUnidentified(bytes: number): boolean {
    if (this.unidentified + bytes > this.unidentifiedLimit) return false;
    this.unidentified += bytes;
    return true;
  }

  releaseUnidentified(bytes: number): void {
    this.unidentified = Math.max(0, this.unidentified - bytes);
  }

  get unidentifiedBytes(): number {
    return this.unidentified;
  }
}
