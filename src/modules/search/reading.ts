/**
 * What a person typed in the search box, read as every kind of identifier it can be: "0803 123
 * 4567" is a phone number, "LND 123 AB" a plate, 15 digits an IMEI, "pol-vhcl-2026-…" a policy
 * number. Each reading is one exact lookup (or, for a name, a trigram match), so a query that can be
 * several things is looked up as each of them.
 */
import { normaliseUuid } from "../../core/ids";
import { nigerianPhone } from "../../core/validation";

const MIN_QUERY = 3;
const MAX_QUERY = 100;

export type Reading =
  /** A policy, claim or plan number (upper-case, spaces dropped); a claim reference looks the same. */
  | { kind: "number"; value: string; typed: string }
  /** A transaction or claim reference as stored, and the UUID it is when it is one (a policy's or consumer's id too). */
  | { kind: "reference"; value: string; uuid: string | null }
  | { kind: "phone"; value: string }
  | { kind: "imei"; value: string }
  | { kind: "serial"; value: string }
  | { kind: "plate"; value: string }
  | { kind: "email"; value: string }
  /** Parts of a name, each matched anywhere in the consumer's names, case-insensitively. */
  | { kind: "name"; words: string[] };

type QueryReading = { readings: Reading[] } | { problem: string };

/** What the box finds things by, in the words the empty answer and the hint use. */
export const SEARCHABLE =
  "a policy number, a transaction reference, a claim or plan number, the insured's name or part of it, a phone number as you write it (0803 123 4567), an e-mail address, a registration plate (with or without spaces) or a phone's IMEI";

const hasDigit = (text: string) => /\d/.test(text);
const hasLetter = (text: string) => /\p{L}/u.test(text);

/** A 10-digit Nigerian mobile number without its leading 0 ("803 123 4567"), as some people write it. */
const withoutTrunkZero = (digits: string) => (/^[789]\d{9}$/.test(digits) ? `+234${digits}` : null);

export function readQuery(typed: string): QueryReading {
  const text = typed.trim().replace(/\s+/g, " ");
  if (text.length < MIN_QUERY) return { problem: `Type at least ${MIN_QUERY} characters to search.` };
  if (text.length > MAX_QUERY) return { problem: `Type at most ${MAX_QUERY} characters: a number, a name or a plate is shorter.` };
  if (text.includes("@")) return { readings: [{ kind: "email", value: text.replace(/\s/g, "").toLowerCase() }] };

  const readings: Reading[] = [];
  const unspaced = text.replace(/\s/g, "");
  const upper = unspaced.toUpperCase();
  const alphanumeric = upper.replace(/-/g, "");

  if (/^[A-Z]{3}-[A-Z0-9]+(?:-[A-Z0-9]+)+$/.test(upper)) readings.push({ kind: "number", value: upper, typed: unspaced });
  const uuid = normaliseUuid(unspaced);
  if (uuid || (!text.includes(" ") && /^[A-Za-z0-9]{1,32}$/.test(text) && hasDigit(text))) readings.push({ kind: "reference", value: text, uuid });

  if (/^\+?[\d\s\-().]+$/.test(text)) {
    const phone = withoutTrunkZero(unspaced.replace(/[-().]/g, "")) ?? nigerianPhone(text);
    if (/^\+[1-9]\d{6,14}$/.test(phone)) readings.push({ kind: "phone", value: phone });
  }
  if (/^\d{15}$/.test(alphanumeric)) readings.push({ kind: "imei", value: alphanumeric });
  if (!uuid && !text.includes(" ") && /^[A-Z0-9](?:[A-Z0-9-]*[A-Z0-9])?$/.test(upper) && upper.length >= 4 && hasDigit(upper) && hasLetter(upper))
    readings.push({ kind: "serial", value: upper });
  if (!uuid && /^[A-Z0-9]{3,10}$/.test(alphanumeric) && hasDigit(alphanumeric) && hasLetter(alphanumeric) && /^[A-Za-z0-9\s-]+$/.test(text))
    readings.push({ kind: "plate", value: alphanumeric });

  if (!hasDigit(text) && hasLetter(text)) {
    const words = text.split(" ").filter((word) => word.replace(/[^\p{L}]/gu, "").length >= MIN_QUERY);
    if (!words.length) return { problem: `Type at least ${MIN_QUERY} letters of one of the names.` };
    readings.push({ kind: "name", words });
  }
  if (!readings.length) return { problem: `“${text}” is not something the search can look for: type ${SEARCHABLE}.` };
  return { readings };
}

/** How the answer says what the query was read as: "a registration plate (LND123AB)". */
export function readingWords(reading: Reading): string {
  switch (reading.kind) {
    case "number":
      return `a policy, claim or plan number (${reading.value})`;
    case "reference":
      return reading.uuid ? "a reference or id" : "a transaction or claim reference";
    case "phone":
      return `a phone number (${reading.value})`;
    case "imei":
      return `an IMEI (${reading.value})`;
    case "serial":
      return `a laptop's serial number (${reading.value})`;
    case "plate":
      return `a registration plate (${reading.value})`;
    case "email":
      return `an e-mail address (${reading.value})`;
    case "name":
      return `a name containing ${reading.words.map((word) => `“${word}”`).join(" and ")}`;
  }
}
