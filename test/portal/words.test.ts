import { describe, expect, test } from "bun:test";
import { commandRegistry } from "../../src/assembly/commands";
import { fieldLabel, inWords } from "../../src/portal/words";
import { JARGON } from "./browser";

/** A documented refusal with its placeholders filled as a real answer would fill them. */
function filled(message: string): string {
  const samples: Record<string, string> = {
    field: "insrncDrtn",
    fields: "socialID.type, socialID.id, socialID.image",
    document: "socialID.image",
    product_code: "vhcl-cmpr-1111",
    amount: "1500",
    premium: "1500",
    balance: "200",
    outstanding: "3000",
    bytes: "5000000",
    age: "85",
  };
  return message.replace(/<([^<>]*)>/g, (_all, name: string) => (name.includes("|") ? name.split("|")[0]! : (samples[name] ?? `X${name.length}`)));
}

const documented = [...new Set(commandRegistry.definitions.flatMap((d) => d.errors.map((e) => filled(e.elbrtn))))];
const generic = [
  "seed.insrncDrtn is required",
  "seed.amount must be a JSON number, not a string (send 1500 without quotes)",
  "seed.amount must be a JSON number, not a string",
  "seed.addtnlFact.vhclValueForInsrnc must be at least 500000; received 20",
  "seed.addtnlFact.isHajj must be a JSON boolean (true or false); received a string",
  "seed.documents[2] must be an object; received a JSON number",
  "statusNote is required to decline",
  "seed.eMail must be a valid e-mail address",
  "seed.phoneNo must be in international format with a + prefix, e.g. +2348012345678",
];

describe("the portal's words for a refusal", () => {
  test.each([...documented, ...generic])("%s", (message) => {
    const words = inWords(message);
    for (const pattern of JARGON) expect({ message, words, jargon: pattern.test(words) }).toEqual({ message, words, jargon: false });
    expect(words.charAt(0)).toBe(words.charAt(0).toUpperCase());
  });

  test("the cases cover the refusals the reference documents", () => {
    expect(documented.length).toBeGreaterThan(80);
  });

  test("fields by their labels, the rule kept", () => {
    expect(inWords("seed.insrncDrtn is required")).toBe("Cover duration is required");
    expect(inWords("seed.amount must be a JSON number, not a string (send abc without quotes)")).toBe("Amount must be a number");
    expect(inWords("seed.statusNote is required to decline: say why in seed.statusNote")).toBe("Give a reason: a decline needs one.");
    expect(inWords("consumer 01a2 lacks socialID.type, socialID.id, socialID.image, required for vhcl-cmpr-1111: add them with prfl entity (same eMail)")).toBe(
      "This consumer's details lack what Vehicle, comprehensive needs: Identity document, Identity number, Scan of the identity document. Add them on the consumer's page (register the same e-mail again), then come back.",
    );
    expect(inWords("insufficient wallet balance: the premium is 1500 naira and the balance is 200.5 naira; top up with wallet topup")).toBe(
      "Insufficient wallet balance: the premium is ₦1,500.00 and the balance is ₦200.50: top up the wallet first",
    );
    expect(fieldLabel("seed.addtnlFact.goodsValue")).toBe("Declared value of the goods");
    expect(fieldLabel("seed.documents[2]")).toBe("Documents (number 3)");
  });
});
