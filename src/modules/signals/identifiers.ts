/**
 * The identifiers a claim is matched by, each in the one form that compares (a plate typed with a
 * space is the same plate), kept only as a keyed hash: HMAC-SHA256 under the signals key of
 * "<kind>:<normalised value>", so equal values meet at every partner and no stored row gives a value
 * back (docs/claims.md, "Fraud signals").
 */
import { createHmac, type KeyObject } from "node:crypto";
import type { Executor } from "../../db/client";
import { normalisePlate } from "../../products/vehicle/plate";
import { findConsumer } from "../consumers";
import type { PolicyRecord } from "../policies";
import type { IdentifierKind } from "./rules";

/** Who claims: the policy's consumer and what identifies them at any partner. */
export interface ClaimantIdentifiers {
  consumerId: string;
  phone?: string | null;
  email?: string | null;
  /** An identity document: its type (socialID.type: nidd, bvnn, ipss, …) and number. */
  nationalId?: { type: string; id: string } | null;
}

/** What is insured: a phone's IMEI or a laptop's serial number, a vehicle's VIN and plate. */
export interface InsuredIdentifiers {
  imei?: string | null;
  serial?: string | null;
  vin?: string | null;
  plate?: string | null;
}

/** The account a claim is paid into. */
export interface BankAccount {
  bankCode: string;
  accountNumber: string;
}

const squeezed = (value: string) => value.replace(/[\s\-./()]+/g, "").toUpperCase();

/** A phone in its +234 form: 0803…, 234803…, 803… and +234 803 … are one number; other countries keep their +code. */
function normalisePhone(value: string): string | null {
  const digits = value.replace(/[\s\-./()]+/g, "");
  const plain = digits.replace(/^\+/, "").replace(/^00/, "");
  if (!/^\d{7,15}$/.test(plain)) return null;
  if (!digits.startsWith("+") && !digits.startsWith("00")) {
    if (/^0\d{10}$/.test(plain)) return `+234${plain.slice(1)}`;
    if (/^[789]\d{9}$/.test(plain)) return `+234${plain}`;
  }
  return `+${plain}`;
}

/** The value of an identifier in the form every partner's copy of it takes; null when nothing is left to compare. */
export function normalisedIdentifier(kind: IdentifierKind, value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  switch (kind) {
    case "imei":
      return trimmed.replace(/\D/g, "") || null;
    case "plate":
      return normalisePlate(trimmed) || null;
    case "phone":
      return normalisePhone(trimmed);
    case "email":
      return trimmed.toLowerCase();
    case "consumer":
      return trimmed.toLowerCase().replace(/-/g, "");
    default:
      // serial, vin, bank_account ("<bank code>:<account number>"), national_id ("<type>:<number>").
      return squeezed(trimmed).replace(/:+/g, ":") || null;
  }
}

/** HMAC-SHA256 of "<kind>:<normalised value>": the kind keeps an IMEI from ever meeting an equal account number. */
export const keyedHash = (key: KeyObject, kind: IdentifierKind, normalised: string): Uint8Array =>
  new Uint8Array(createHmac("sha256", key).update(`${kind}:${normalised}`).digest());

/** The identifiers of a claim, hashed, once each. */
export function hashedIdentifiers(
  key: KeyObject,
  of: { claimant: ClaimantIdentifiers; insured: InsuredIdentifiers; bankAccount?: BankAccount },
): { kind: IdentifierKind; hash: Uint8Array }[] {
  const { claimant, insured, bankAccount } = of;
  const plain: [IdentifierKind, string | null | undefined][] = [
    ["consumer", claimant.consumerId],
    ["phone", claimant.phone],
    ["email", claimant.email],
    ["national_id", claimant.nationalId && `${claimant.nationalId.type}:${claimant.nationalId.id}`],
    ["imei", insured.imei],
    ["serial", insured.serial],
    ["vin", insured.vin],
    ["plate", insured.plate],
    ["bank_account", bankAccount && `${bankAccount.bankCode}:${bankAccount.accountNumber}`],
  ];
  const seen = new Set<string>();
  const hashed: { kind: IdentifierKind; hash: Uint8Array }[] = [];
  for (const [kind, value] of plain) {
    const normalised = typeof value === "string" ? normalisedIdentifier(kind, value) : null;
    if (!normalised || seen.has(`${kind}:${normalised}`)) continue;
    seen.add(`${kind}:${normalised}`);
    hashed.push({ kind, hash: keyedHash(key, kind, normalised) });
  }
  return hashed;
}

const textOf = (value: unknown) => (typeof value === "string" && value.trim() ? value : null);

/**
 * What a policy's claims are matched by: its consumer's phone, e-mail and identity document (a
 * traveller's passport too), and the insured item as its product family records it (a device's
 * `deviceId`, "imei:…" or "serial:…"; a vehicle's chassis number `chsssId` and plate `rgstrtId`).
 */
export async function policyIdentifiers(db: Executor, policy: PolicyRecord): Promise<{ claimant: ClaimantIdentifiers; insured: InsuredIdentifiers }> {
  const consumer = await findConsumer(db, policy.partnerId, policy.consumerId);
  const profile = (consumer?.profile ?? {}) as Record<string, unknown>;
  const social = (profile.socialID ?? {}) as Record<string, unknown>;
  const socialId = textOf(social.id);
  const passport = textOf(policy.facts.passportNo);
  const [deviceKind, deviceValue] = policy.deviceId?.split(/:(.*)/s) ?? [];
  return {
    claimant: {
      consumerId: policy.consumerId,
      phone: textOf(profile.phoneNo),
      email: textOf(profile.eMail),
      nationalId: socialId ? { type: textOf(social.type) ?? "id", id: socialId } : passport ? { type: "ipss", id: passport } : null,
    },
    insured: {
      imei: deviceKind === "imei" ? deviceValue : null,
      serial: deviceKind === "serial" ? deviceValue : null,
      vin: textOf(policy.facts.chsssId),
      plate: textOf(policy.facts.rgstrtId),
    },
  };
}
