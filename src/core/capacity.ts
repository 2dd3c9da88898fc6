/** A bound on commands in flight (design: capacity). Past it the endpoint answers 35/503 at once. */
export class CapacityGate {
  private inFlight = 0;
  constructor(readonly limit: number) {}

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
}
