/** Fixtures without dependencies, shared by the suites that drive the app and those that drive the typed client. */

/** YYYY-MM-DD in Nigerian local time, `days` from now. */
export function watDate(days = 0): string {
  return new Date(Date.now() + 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/** A valid 15-digit IMEI (Luhn check digit) unique to this call. */
export function newImei(): string {
  const body = `35${String(Math.floor(Math.random() * 1e12)).padStart(12, "0")}`;
  const sum = [...body].reverse().reduce((acc, ch, i) => {
    let d = Number(ch);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    return acc + d;
  }, 0);
  return body + String((10 - (sum % 10)) % 10);
}

/** A consumer who satisfies every family's requirements (spec 2.3), marine included. */

/** The facts of a vehicle that passes every check (a real VIN's shape, a Lagos plate). */
export const vehicleFacts = () => ({
  brand: "Toyota",
  model: "Corolla",
  year: "2018",
  chsssId: "2T1BURHE0JC074316",
  engineId: "2ZR1234567",
  rgstrtId: "ABC123DE",
});
