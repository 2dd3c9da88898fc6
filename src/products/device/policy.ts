/** Issuing device warranty (spec 2.5): one identified phone or laptop, from today for insrncDrtn. */
import { z } from "zod";
import { text } from "../../core/validation";
import { parseFacts } from "../policy-helpers";
import { requireType } from "../shared";
import type { PolicyRules } from "../types";
import { coverFromToday, policyDuration } from "../vehicle/issuance";
import { DEVICE_DURATIONS, type DeviceDuration, type DeviceTier, devicePremiumKobo } from "./tiers";

/** How a family's devices are told apart (uIdnt): a device holds one active policy at a time (spec 2.5). */
export interface DeviceIdentifier {
  /** As printed and in declines: "IMEI", "Serial number". */
  label: string;
  /** Prefix of the stored deviceId, so an IMEI and a serial number never collide. */
  kind: "imei" | "serial";
  schema: z.ZodType<string, unknown>;
}

/** The Luhn check every IMEI's 15th digit satisfies (3GPP TS 23.003). */
function passesLuhn(digits: string): boolean {
  const sum = [...digits].reverse().reduce((acc, ch, i) => {
    const d = Number(ch) * (i % 2 === 1 ? 2 : 1);
    return acc + (d > 9 ? d - 9 : d);
  }, 0);
  return sum % 10 === 0;
}

/** Phones: 15 digits; spaces and hyphens as some phones display it (*#06#) are dropped. */
export const IMEI: DeviceIdentifier = {
  label: "IMEI",
  kind: "imei",
  schema: z
    .string()
    .transform((imei) => imei.replace(/[\s-]/g, ""))
    .pipe(
      z
        .string()
        .regex(/^\d{15}$/, "must be the phone's IMEI: exactly 15 digits (dial *#06# to show it)")
        .refine(passesLuhn, "is not a valid IMEI: its last digit fails the Luhn check digit test; re-read the number (dial *#06#)"),
    ),
};

/** Laptops: the manufacturer's serial number, stored uppercase so case does not make two devices. */
export const SERIAL_NUMBER: DeviceIdentifier = {
  label: "Serial number",
  kind: "serial",
  schema: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9](?:[A-Z0-9-]*[A-Z0-9])?$/, "must be the laptop's serial number: letters, digits and hyphens, no spaces")
    .min(4)
    .max(40),
};

// Strict: a misspelt field would otherwise be dropped silently from the policy.
export const deviceFacts = (identifier: DeviceIdentifier) => z.strictObject({ brand: text(100), model: text(100), uIdnt: identifier.schema });

export function devicePolicy(ctgry: string, tiers: readonly DeviceTier[], identifier: DeviceIdentifier, schema = deviceFacts(identifier)): PolicyRules {
  type DeviceFacts = z.output<typeof schema> & { insrncDrtn: DeviceDuration };

  return {
    terms(type, request, { now }) {
      const tier = requireType(tiers, ctgry, type);
      const insrncDrtn = policyDuration(DEVICE_DURATIONS, request.insrncDrtn);
      const facts: DeviceFacts = { insrncDrtn, ...parseFacts(schema, request.addtnlFact) };
      return {
        premiumKobo: devicePremiumKobo(tier, insrncDrtn),
        duration: insrncDrtn,
        ...coverFromToday(now, insrncDrtn),
        facts,
        deviceId: `${identifier.kind}:${facts.uIdnt}`,
        liveRoute: "insurer",
        printed: [
          ["Device", `${facts.brand} ${facts.model}`],
          [identifier.label, facts.uIdnt],
          ["Cover", tier.covers],
        ],
      };
    },

    declineReason(_type, terms, _context, { deviceAlreadyInsured }) {
      if (!deviceAlreadyInsured) return null;
      const { uIdnt } = terms.facts as DeviceFacts;
      return `Device already insured: ${identifier.label} ${uIdnt} is covered by another active policy, and a device can hold one active policy at a time.`;
    },

    // Spec 2.6: device products answer with policyNo (test mode adds certUrl); the certificate is a PDF.
    certificate() {
      return { type: "pdf", delivery: "policyNo" };
    },
  };
}
