/**
 * The money-out provider adapter of claim payouts (src/modules/payouts, docs/payouts.md), pure and
 * in-process: the bank list, the name tolerance (units and properties), every scenario of the
 * sandbox by account number, the idempotency of a transfer, the signature of its callbacks, and
 * the reading of hostile callback bodies. Everything is imported through the module's index.ts,
 * as the claims module will.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { loadConfig } from "../src/core/config";
import {
  type AccountLookup,
  type BankAccount,
  bankChoices,
  bankName,
  isBankCode,
  namesMatch,
  type PayoutCallback,
  type PayoutProvider,
  type PayoutRecipient,
  PayoutRefused,
  type PayoutTransfer,
  payoutProvider,
  SANDBOX_BANK_CODE,
  type TransferAnswer,
  type TransferState,
} from "../src/modules/payouts";

const config = loadConfig({});
const sandbox = payoutProvider(config, "live");

/** A transfer to a sandbox account ending as the scenario needs; every field may be changed. */
function transferTo(
  accountNumber: string,
  changes: Partial<Omit<PayoutTransfer, "recipient">> & { recipient?: Partial<PayoutRecipient> } = {},
): PayoutTransfer {
  const { recipient, ...rest } = changes;
  return {
    reference: `clm-test-${accountNumber}`,
    amountKobo: 25_000_000,
    narration: "Claim CLM-0001 settlement",
    ...rest,
    recipient: { bankCode: SANDBOX_BANK_CODE, accountNumber, accountName: "NGOZI ADAEZE EZE", ...recipient },
  };
}

/** The callbacks of a new transfer, each verified and read. */
async function sendAndRead(provider: PayoutProvider, transfer: PayoutTransfer): Promise<{ answer: TransferAnswer; callbacks: PayoutCallback[] }> {
  const answer = await provider.createTransfer(transfer);
  const callbacks = (provider.immediateCallbacks?.(transfer) ?? []).map((callback) => {
    expect(provider.verifySignature(callback.body, callback.signature)).toBe(true);
    return provider.readCallback(callback.body);
  });
  return { answer, callbacks };
}

/** What a rejected promise or thrown call was refused with. */
async function refusal(run: () => Promise<unknown> | unknown): Promise<string> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(PayoutRefused);
    return (error as PayoutRefused).code;
  }
  throw new Error("expected a refusal");
}

describe("banks", () => {
  test("every code is unique and every name non-empty; the portal's list is every bank, by name; the sandbox bank is there", () => {
    const codes = bankChoices.map((bank) => bank.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const bank of bankChoices) {
      expect(bank.name.trim()).not.toBe("");
      expect(isBankCode(bank.code)).toBe(true);
      expect(bankName(bank.code)).toBe(bank.name);
    }
    const names = bankChoices.map((bank) => bank.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
    expect(bankName(SANDBOX_BANK_CODE)).toBe("Sandbox Bank");
  });

  test("the main banks and fintechs carry their codes; a code that is no bank's is none", () => {
    const expected: Record<string, string> = {
      "044": "Access Bank",
      "058": "Guaranty Trust Bank (GTBank)",
      "011": "First Bank of Nigeria",
      "033": "United Bank for Africa (UBA)",
      "057": "Zenith Bank",
      "070": "Fidelity Bank",
      "214": "First City Monument Bank (FCMB)",
      "232": "Sterling Bank",
      "035": "Wema Bank",
      "032": "Union Bank of Nigeria",
      "221": "Stanbic IBTC Bank",
      "050": "Ecobank Nigeria",
      "076": "Polaris Bank",
      "082": "Keystone Bank",
      "215": "Unity Bank",
      "301": "Jaiz Bank",
      "101": "Providus Bank",
      "00103": "Globus Bank",
      "102": "Titan Trust Bank",
      "105": "PremiumTrust Bank",
      "50211": "Kuda Bank",
      "50515": "Moniepoint Microfinance Bank",
      "999992": "OPay",
      "999991": "PalmPay",
    };
    for (const [code, name] of Object.entries(expected)) expect({ code, name: bankName(code) }).toEqual({ code, name });
    for (const code of ["", "44", "0044", "999", "030", " 044", "044 "]) {
      expect(isBankCode(code)).toBe(false);
      expect(bankName(code)).toBeNull();
    }
  });
});

describe("the name tolerance", () => {
  const matches: [string, string][] = [
    ["Ngozi Eze", "EZE NGOZI"],
    ["Ngozi Eze", "EZE NGOZI ADAEZE"],
    ["Ngozi Adaeze Eze", "EZE NGOZI"],
    ["Ngozi Adaeze Eze", "EZE NGOZI A"],
    ["Ngozi A. Eze", "EZE NGOZI ADAEZE"],
    ["Chief (Mrs.) Babátúndé Ọlárewájú", "OLAREWAJU BABATUNDE"],
    ["Alhaji Ibrahim Musa", "MUSA IBRAHIM"],
    ["Chinedu Okafor", "OKAFOR CHINEDUM"],
    ["Mohammed Bello", "MUHAMMED BELLO"],
    ["Oluwaseun O'Brien", "OBRIEN OLUWASEUN"],
    ["Tola Adeyemi-Johnson", "ADEYEMI JOHNSON TOLA"],
    ["Okafor, Chinedu", "CHINEDU OKAFOR"],
    ["Ngozi", "NGOZI"],
    ["Acme Ventures Ltd", "ACME VENTURES NIG LIMITED"],
    ["Acme Ventures Ltd.", "ACME LIMITED"],
    ["Okafor and Sons Enterprises", "OKAFOR SONS NIG ENTERPRISE"],
  ];
  const mismatches: [string, string, string][] = [
    ["Ngozi Eze", "NGOZI OKAFOR", "only one of the insured's names"],
    ["Ngozi Adaeze Eze", "EZE NGOZI CHIOMA", "ADAEZE of the insured is not in the account name, and CHIOMA"],
    ["Mohammed Bello", "MUHAMMAD BELLO", "only one"],
    ["N. Eze", "EZE NGOZI", "only one"],
    ["Ngozi", "NGOZI EZE", "a one-word name matches only the same one word"],
    ["Ngozi Eze", "NGOZI", "a one-word name"],
    ["Ngozi Eze", "NGOZI EZE VENTURES", "the account is in a business name (VENTURES)"],
    ["Acme Ventures Ltd", "ACME FOODS LTD", "FOODS of the account name"],
    ["Acme Foods Ltd", "ACME LTD", "FOODS of the insured"],
    ["Acme Ventures Ltd", "EZE NGOZI", "ACME of the insured"],
    ["Ada Eze", "ADA EZEH", "only one"],
    ["", "NGOZI EZE", "the insured's name has no letters"],
    ["Ngozi Eze", "...", "the account name has no letters"],
    [Array.from({ length: 13 }, (_, i) => `Name${i}`).join(" "), "NAME0 NAME12", "more than 12 words"],
  ];

  test("names that match, with why", () => {
    for (const [insured, account] of matches) {
      const result = namesMatch(insured, account);
      expect({ insured, account, match: result.match }).toEqual({ insured, account, match: true });
      expect(result.why).toStartWith("matches: ");
    }
    expect(namesMatch("Ngozi Adaeze Eze", "EZE NGOZI A").why).toBe("matches: NGOZI, ADAEZE as the initial A, EZE found in the account name");
    expect(namesMatch("Chinedu Okafor", "OKAFOR CHINEDUM ADA").why).toBe(
      "matches: CHINEDU as CHINEDUM, OKAFOR found in the account name; the account name adds ADA",
    );
  });

  test("names that do not, with why", () => {
    for (const [insured, account, why] of mismatches) {
      const result = namesMatch(insured, account);
      expect({ insured, account, match: result.match }).toEqual({ insured, account, match: false });
      expect(result.why).toStartWith("no match: ");
      expect(result.why).toContain(why);
    }
  });

  test("any text at all gives an answer with its reason, quickly, however long or strange", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), fc.string({ unit: "binary", maxLength: 80 }), (a, b) => {
        for (const [x, y] of [
          [a, b],
          [b, a],
        ] as const) {
          const result = namesMatch(x, y);
          expect(typeof result.match).toBe("boolean");
          expect(result.why.length).toBeGreaterThan(0);
        }
      }),
    );
    const started = performance.now();
    const huge = "Ngozi Eze ".repeat(100_000);
    expect(namesMatch(huge, "EZE NGOZI").match).toBe(false);
    expect(namesMatch("Ngozi Eze", "A B C D E F G H I J K L").match).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  // Person names: words no two of which are the same or one letter apart, none a title or a company word.
  const GIVEN = ["NGOZI", "CHINEDU", "OLUWASEUN", "BABATUNDE", "FATIMA", "IBRAHIM", "TEMITOPE", "CHIAMAKA", "AISHA", "EMEKA", "KEHINDE", "IFEOMA"];
  const FAMILY = ["EZE", "OKAFOR", "ADEYEMI", "BELLO", "OKONKWO", "ABUBAKAR", "NWOSU", "OGUNDIPE", "YUSUF", "OLAWALE", "DANJUMA", "IGWE"];
  const TITLES = ["Mr", "Mrs.", "DR", "Chief", "Alhaji", "Alhaja", "Engr.", "Prof", "Barr.", "Pastor", "HRH", "Sir", "Lady", "Otunba", "Miss", "Ms"];

  /** A person's name: a given name, up to two middle names, a family name, all distinct. */
  const person = fc
    .tuple(fc.constantFrom(...GIVEN), fc.shuffledSubarray(GIVEN, { maxLength: 2 }), fc.constantFrom(...FAMILY))
    .filter(([first, middles]) => !middles.includes(first))
    .map(([first, middles, last]) => [first, ...middles, last]);

  /** A permutation of the words, by the given sort keys. */
  const permuted = (words: readonly string[], keys: readonly number[]) =>
    words
      .map((word, i) => ({ word, key: keys[i % keys.length] ?? 0 }))
      .sort((a, b) => a.key - b.key)
      .map(({ word }) => word);

  /** A pair to compare: an insured person and an account name that may hold their words, fewer, more, or others. */
  const pair = fc.tuple(person, fc.shuffledSubarray([...GIVEN, ...FAMILY], { maxLength: 4 }), fc.boolean()).map(([insured, others, keepAll]) => {
    const account = keepAll ? [...insured, ...others.filter((w) => !insured.includes(w))] : [...insured.slice(0, 1), ...insured.slice(-1), ...others];
    return { insured, account: [...new Set(account)] };
  });

  test("property: the order of the words of either name never matters", () => {
    fc.assert(
      fc.property(
        pair,
        fc.array(fc.integer(), { minLength: 1, maxLength: 8 }),
        fc.array(fc.integer(), { minLength: 1, maxLength: 8 }),
        ({ insured, account }, k1, k2) => {
          const before = namesMatch(insured.join(" "), account.join(" ")).match;
          expect(namesMatch(permuted(insured, k1).join(" "), permuted(account, k2).join(" ")).match).toBe(before);
        },
      ),
    );
  });

  test("property: a title added to either name, anywhere, never matters", () => {
    fc.assert(
      fc.property(pair, fc.constantFrom(...TITLES), fc.nat(), fc.boolean(), ({ insured, account }, title, at, toInsured) => {
        const before = namesMatch(insured.join(" "), account.join(" ")).match;
        const withTitle = (words: string[]) => {
          const copy = [...words];
          copy.splice(at % (copy.length + 1), 0, title);
          return copy.join(" ");
        };
        const after = toInsured ? namesMatch(withTitle(insured), account.join(" ")) : namesMatch(insured.join(" "), withTitle(account));
        expect(after.match).toBe(before);
      }),
    );
  });

  /** The word with each letter in either case and, for some, an accent a Yoruba or Igbo spelling puts on it. */
  const ACCENTED: Record<string, string[]> = {
    A: ["à", "á", "À", "Á"],
    E: ["è", "é", "ẹ", "Ẹ", "ẹ́"],
    I: ["ì", "í", "Í"],
    O: ["ò", "ó", "ọ", "Ọ", "ọ̀"],
    U: ["ù", "ú", "Ú"],
    S: ["ṣ", "Ṣ"],
    N: ["ń", "Ń"],
  };
  const disguised = (words: readonly string[], choices: readonly number[]) => {
    let n = 0;
    return words
      .map((word) =>
        [...word]
          .map((letter) => {
            const choice = choices[n++ % choices.length] ?? 0;
            const accents = ACCENTED[letter];
            if (accents && choice % 3 === 0) return accents[choice % accents.length]!;
            return choice % 2 === 0 ? letter.toLowerCase() : letter;
          })
          .join(""),
      )
      .join(" ");
  };

  test("property: case and accents never matter", () => {
    fc.assert(
      fc.property(
        pair,
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        ({ insured, account }, c1, c2) => {
          const before = namesMatch(insured.join(" "), account.join(" ")).match;
          expect(namesMatch(disguised(insured, c1), disguised(account, c2)).match).toBe(before);
        },
      ),
    );
  });

  test("property: another family name never matches, whatever the given and middle names, order, titles or case", () => {
    fc.assert(
      fc.property(
        person,
        fc.constantFrom(...FAMILY),
        fc.boolean(),
        fc.array(fc.integer(), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        (insured, other, withTitle, order, choices) => {
          const last = insured.at(-1)!;
          fc.pre(other !== last && !insured.includes(other));
          const account = permuted([...insured.slice(0, -1), other], order);
          const typed = `${withTitle ? "Chief " : ""}${disguised(account, choices)}`;
          expect(namesMatch(insured.join(" "), typed).match).toBe(false);
        },
      ),
    );
  });

  test("property: an insured's own name, as any bank prints it (any order, case, title, a middle name left out or added), matches", () => {
    fc.assert(
      fc.property(person, fc.array(fc.integer(), { minLength: 1, maxLength: 6 }), fc.boolean(), ([first, ...rest], order, leaveOut) => {
        const last = rest.pop()!;
        const insured = [first!, ...rest, last];
        const printed = leaveOut ? [first!, last] : [...insured, ...(rest.length === 0 ? ["AMINA"] : [])];
        expect(namesMatch(insured.join(" "), permuted(printed, order).join(" ")).match).toBe(true);
      }),
    );
  });
});

describe("the sandbox's account name enquiry", () => {
  const resolve = (accountNumber: string, expectedName = "Ngozi Adaeze Eze", bankCode = SANDBOX_BANK_CODE): Promise<AccountLookup> =>
    sandbox.resolveAccount({ bankCode, accountNumber }, { expectedName });

  test("an account belongs to the insured, named as banks print names", async () => {
    expect(await resolve("0123456780")).toEqual({ status: "found", accountName: "NGOZI ADAEZE EZE" });
    expect(await resolve("2034567895", "Chief (Mrs.) Ọláyínká Adébáyọ̀")).toEqual({ status: "found", accountName: "OLAYINKA ADEBAYO" });
    // Every real bank of the list too: the scenario is the account number's.
    expect(await resolve("0123456780", "Ngozi Eze", "058")).toEqual({ status: "found", accountName: "NGOZI EZE" });
    for (const ending of "01234567")
      expect(namesMatch("Ngozi Adaeze Eze", ((await resolve(`012345678${ending}`)) as { accountName: string }).accountName).match).toBe(true);
  });

  test("0000000000: no such account", async () => {
    expect(await resolve("0000000000")).toEqual({ status: "not_found", reason: "Could not resolve account name. Check parameters or try again." });
  });

  test("ending 9: the account is someone else's, for any insured", async () => {
    const found = await resolve("0123456789");
    expect(found.status).toBe("found");
    expect(namesMatch("Ngozi Adaeze Eze", (found as { accountName: string }).accountName).match).toBe(false);
    // Even an insured named like the first stranger.
    expect(namesMatch("Adebayo Oluwaseun Tunde", ((await resolve("0123456789", "Adebayo Oluwaseun Tunde")) as { accountName: string }).accountName).match).toBe(
      false,
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (name) => {
        const lookup = await resolve("1111111119", name);
        expect(lookup.status).toBe("found");
        expect(namesMatch(name, (lookup as { accountName: string }).accountName).match).toBe(false);
      }),
    );
  });

  test("ending 8: the insured's name as banks print it (upper case, surname first, a middle name added), still a match", async () => {
    expect(await resolve("0123456788", "Ngozi Eze")).toEqual({ status: "found", accountName: "EZE NGOZI OLUWASEUN" });
    expect(await resolve("0123456788", "Ngozi Adaeze Eze")).toEqual({ status: "found", accountName: "EZE NGOZI ADAEZE" });
    expect(await resolve("0123456788", "Acme Ventures Ltd")).toEqual({ status: "found", accountName: "ACME VENTURES LIMITED" });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          "Ngozi Eze",
          "Oluwaseun Adeyemi",
          "Fatima Yusuf Bello",
          "Mr. Chinedu Okafor",
          "Ìbí Ọ̀kọ́",
          "Okafor Trading Co",
          "Amina Chioma Oluwaseun Musa",
        ),
        async (name) => {
          const lookup = await resolve("5555555558", name);
          expect(lookup.status).toBe("found");
          expect({ name, match: namesMatch(name, (lookup as { accountName: string }).accountName).match }).toEqual({ name, match: true });
        },
      ),
    );
  });

  test("a bank code not in the list, or an account number that is not ten digits, is not found", async () => {
    expect(await resolve("0123456780", "Ngozi Eze", "999")).toEqual({ status: "not_found", reason: 'unknown bank: no bank has the code "999"' });
    for (const accountNumber of ["012345678", "01234567801", "01234S6780", " 0123456780", "０１２３４５６７８０", ""]) {
      const lookup = await resolve(accountNumber);
      expect({ accountNumber, lookup }).toEqual({ accountNumber, lookup: { status: "not_found", reason: "an account number (NUBAN) is 10 digits" } });
    }
    // Not even strings: refused in the same words, never thrown.
    expect((await sandbox.resolveAccount({ bankCode: 44, accountNumber: null } as unknown as BankAccount, { expectedName: "x" })).status).toBe("not_found");
  });

  test("the same question answers the same in every process (a provider that never saw the first)", async () => {
    const other = payoutProvider(loadConfig({}), "live");
    expect(other).not.toBe(sandbox);
    for (const accountNumber of ["0123456780", "0123456788", "0123456789", "0000000000"])
      expect(await other.resolveAccount({ bankCode: "044", accountNumber }, { expectedName: "Ngozi Eze" })).toEqual(
        await sandbox.resolveAccount({ bankCode: "044", accountNumber }, { expectedName: "Ngozi Eze" }),
      );
  });
});

describe("the sandbox's transfers, by account number", () => {
  test("anything else: success at once (transfer.success), and asking says success", async () => {
    for (const accountNumber of ["0123456780", "0123456785", "0123456786", "0123456787", "0123456788", "0123456789"]) {
      const transfer = transferTo(accountNumber);
      const { answer, callbacks } = await sendAndRead(sandbox, transfer);
      expect(answer).toEqual({ providerReference: expect.stringMatching(/^TRF_[0-9a-f]{16}$/), status: "pending" });
      expect(callbacks).toEqual([
        {
          event: "transfer.success",
          reference: transfer.reference,
          providerReference: answer.providerReference,
          outcome: "success",
          amountKobo: 25_000_000,
          reason: null,
        },
      ]);
      expect(await sandbox.queryTransfer(transfer)).toEqual({ status: "success", amountKobo: 25_000_000 });
    }
  });

  test("ending 1: fails at once (transfer.failed, Dormant account), and asking says failed", async () => {
    const transfer = transferTo("0123456781");
    const { answer, callbacks } = await sendAndRead(sandbox, transfer);
    expect(callbacks).toEqual([
      {
        event: "transfer.failed",
        reference: transfer.reference,
        providerReference: answer.providerReference,
        outcome: "failed",
        amountKobo: 25_000_000,
        reason: "Dormant account",
      },
    ]);
    expect(await sandbox.queryTransfer(transfer)).toEqual({ status: "failed", reason: "Dormant account", amountKobo: 25_000_000 });
  });

  test("ending 2: succeeds, then is reversed (transfer.success, then transfer.reversed, in that order), and asking says reversed", async () => {
    const transfer = transferTo("0123456782");
    const { callbacks } = await sendAndRead(sandbox, transfer);
    expect(callbacks.map((callback) => [callback.event, callback.outcome])).toEqual([
      ["transfer.success", "success"],
      ["transfer.reversed", "reversed"],
    ]);
    expect(callbacks[1]!.reason).toContain("Reversed by the beneficiary bank");
    expect(await sandbox.queryTransfer(transfer)).toEqual({ status: "reversed", reason: callbacks[1]!.reason!, amountKobo: 25_000_000 });
  });

  test("ending 3: succeeds, but the callback is lost; asking (the background check) finds the success", async () => {
    const transfer = transferTo("0123456783");
    const { answer, callbacks } = await sendAndRead(sandbox, transfer);
    expect(answer.status).toBe("pending");
    expect(callbacks).toEqual([]);
    // Another process, which never saw the transfer, answers the same.
    expect(await payoutProvider(loadConfig({}), "live").queryTransfer(transfer)).toEqual({ status: "success", amountKobo: 25_000_000 });
  });

  test("ending 4: stays pending; no callback, and asking says pending", async () => {
    const transfer = transferTo("0123456784");
    const { callbacks } = await sendAndRead(sandbox, transfer);
    expect(callbacks).toEqual([]);
    expect(await sandbox.queryTransfer(transfer)).toEqual({ status: "pending", amountKobo: 25_000_000 });
  });

  test("a callback is Paystack's transfer event: kobo, NGN, the narration as reason, the recipient's details, signed x-paystack-signature", () => {
    const transfer = transferTo("0123456781", { recipient: { bankCode: "058" } });
    const [callback] = sandbox.immediateCallbacks!(transfer);
    expect(sandbox.signatureHeader).toBe("x-paystack-signature");
    const { event, data } = JSON.parse(callback!.body);
    expect(event).toBe("transfer.failed");
    expect(data).toMatchObject({
      amount: 25_000_000,
      currency: "NGN",
      reason: "Claim CLM-0001 settlement",
      reference: transfer.reference,
      status: "failed",
      source: "balance",
      transfer_code: expect.stringMatching(/^TRF_/),
      gateway_response: "Dormant account",
      recipient: {
        type: "nuban",
        recipient_code: expect.stringMatching(/^RCP_/),
        name: "NGOZI ADAEZE EZE",
        details: { account_number: "0123456781", account_name: "NGOZI ADAEZE EZE", bank_code: "058", bank_name: "Guaranty Trust Bank (GTBank)" },
      },
    });
    // The same transfer always yields the same bytes, so a repeat delivery is recognisably a repeat.
    expect(sandbox.immediateCallbacks!(transfer)).toEqual([callback!]);
  });
});

describe("a transfer is idempotent on its reference", () => {
  test("the same reference again answers the same transfer, in this process and in another", async () => {
    const transfer = transferTo("0123456780", { reference: "clm-idem-1" });
    const first = await sandbox.createTransfer(transfer);
    expect(await sandbox.createTransfer(transfer)).toEqual(first);
    expect(await sandbox.createTransfer({ ...transfer, narration: "Claim CLM-0001 (sent again)" })).toEqual(first);
    expect(await payoutProvider(loadConfig({}), "live").createTransfer(transfer)).toEqual(first);
    // Another reference is another transfer.
    expect((await sandbox.createTransfer({ ...transfer, reference: "clm-idem-2" })).providerReference).not.toBe(first.providerReference);
  });

  test("another amount or another account under a used reference is refused, and the first stands", async () => {
    const transfer = transferTo("0123456780", { reference: "clm-idem-3" });
    const first = await sandbox.createTransfer(transfer);
    expect(await refusal(() => sandbox.createTransfer({ ...transfer, amountKobo: transfer.amountKobo + 1 }))).toBe("reference_reused");
    expect(await refusal(() => sandbox.createTransfer(transferTo("0123456790", { reference: "clm-idem-3" })))).toBe("reference_reused");
    expect(await refusal(() => sandbox.createTransfer(transferTo("0123456780", { reference: "clm-idem-3", recipient: { bankCode: "044" } })))).toBe(
      "reference_reused",
    );
    expect(await sandbox.createTransfer(transfer)).toEqual(first);
  });

  test("a request a real provider refuses is refused, with its reason, before anything is sent", async () => {
    const refusedBy = async (transfer: PayoutTransfer) => {
      const code = await refusal(() => sandbox.createTransfer(transfer));
      // Asking about it, or its callbacks, are refused the same way.
      expect(await refusal(() => sandbox.queryTransfer(transfer))).toBe(code);
      expect(await refusal(() => sandbox.immediateCallbacks!(transfer))).toBe(code);
      return code;
    };
    for (const reference of ["", "CLM-UPPER", "clm ref", "clm/ref", "x".repeat(101), "clm-\u0000"])
      expect({ reference, code: await refusedBy(transferTo("0123456780", { reference })) }).toEqual({ reference, code: "invalid_reference" });
    for (const amountKobo of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, "100" as unknown as number])
      expect({ amountKobo, code: await refusedBy(transferTo("0123456780", { amountKobo })) }).toEqual({ amountKobo, code: "invalid_amount" });
    expect(await refusedBy(transferTo("0123456780", { recipient: { bankCode: "999" } }))).toBe("unknown_bank");
    expect(await refusedBy(transferTo("012345678"))).toBe("invalid_account");
    expect(await refusedBy(transferTo("0000000000"))).toBe("no_such_account");
    expect(await refusedBy(transferTo("0123456780", { recipient: { accountName: " " } }))).toBe("invalid_account");
    for (const narration of ["", "two\nlines", "n".repeat(101)]) expect(await refusedBy(transferTo("0123456780", { narration }))).toBe("invalid_narration");
    expect(await refusedBy({ reference: "clm-x" } as PayoutTransfer)).toBe("invalid_amount");
  });
});

describe("callback signatures", () => {
  const transfer = transferTo("0123456780", { reference: "clm-signed" });
  const [callback] = sandbox.immediateCallbacks!(transfer);
  const { body, signature } = callback!;

  test("verify with the provider's secret, over the text or its bytes; not with another secret, another signature or none", () => {
    expect(sandbox.verifySignature(body, signature)).toBe(true);
    expect(sandbox.verifySignature(new TextEncoder().encode(body), signature)).toBe(true);
    expect(sandbox.verifySignature(body, ` ${signature.toUpperCase()} `)).toBe(true);
    const otherSecret = payoutProvider(loadConfig({ PAYOUT_PROVIDER_SECRET: "another-secret-of-sixteen" }), "live");
    expect(otherSecret.verifySignature(body, signature)).toBe(false);
    // And the funding provider's secret is not the payouts' (a funding callback's key signs no payout).
    expect(config.PAYOUT_PROVIDER_SECRET).not.toBe(config.PAYMENT_PROVIDER_SECRET);
    for (const wrong of [null, "", signature.slice(0, -1), `${signature}0`, signature.replace(/^./, (c) => (c === "0" ? "1" : "0"))])
      expect(sandbox.verifySignature(body, wrong)).toBe(false);
  });

  test("property: a body with any one byte changed is refused", () => {
    const bytes = new TextEncoder().encode(body);
    fc.assert(
      fc.property(fc.nat({ max: bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), (at, delta) => {
        const changed = bytes.slice();
        changed[at] = (changed[at]! + delta) % 256;
        expect(sandbox.verifySignature(changed, signature)).toBe(false);
      }),
    );
  });
});

describe("reading a callback never trusts its types", () => {
  const genuine = JSON.parse(sandbox.immediateCallbacks!(transferTo("0123456781", { reference: "clm-hostile" }))[0]!.body) as {
    event: string;
    data: Record<string, unknown>;
  };
  const read = (value: unknown) => sandbox.readCallback(typeof value === "string" ? value : JSON.stringify(value));
  const withData = (changes: Record<string, unknown>, event = genuine.event) => read({ event, data: { ...genuine.data, ...changes } });

  test("the genuine body reads as what it says", () => {
    expect(read(genuine)).toMatchObject({
      event: "transfer.failed",
      reference: "clm-hostile",
      outcome: "failed",
      amountKobo: 25_000_000,
      reason: "Dormant account",
    });
  });

  test("a body that is not the provider's JSON throws", () => {
    for (const body of ["", "not json", "{", '{"event":"transfer.success"', "[]", "null", "42", '"transfer.success"', "true"])
      expect(() => sandbox.readCallback(body)).toThrow();
  });

  test("wrong types, missing fields, huge numbers and an event that disagrees with its status settle nothing", () => {
    const cases: Record<string, unknown>[] = [
      { amount: "25000000" },
      { amount: 1e30 },
      { amount: 2 ** 53 },
      { amount: -25_000_000 },
      { amount: 0 },
      { amount: 2.5 },
      { amount: null },
      { amount: undefined },
      { reference: 12345 },
      { reference: "CLM-HOSTILE" },
      { reference: "x".repeat(101) },
      { reference: undefined },
      { transfer_code: "RCP_abc" },
      { transfer_code: ["TRF_abc"] },
      { transfer_code: undefined },
      { currency: "USD" },
      { currency: undefined },
      { status: "success" },
      { status: ["failed"] },
      { status: undefined },
    ];
    for (const changes of cases) expect({ changes, outcome: withData(changes).outcome }).toEqual({ changes, outcome: null });
    for (const event of ["transfer.otp", "charge.success", "TRANSFER.FAILED", "transfer.failed ", "constructor", "__proto__", "toString"])
      expect({ event, outcome: withData({}, event).outcome }).toEqual({ event, outcome: null });
    for (const body of [
      {},
      { event: "transfer.failed" },
      { event: "transfer.failed", data: [] },
      { event: "transfer.failed", data: "x" },
      { event: 7, data: genuine.data },
    ])
      expect(read(body).outcome).toBeNull();
    // Fields come only from the object itself, never from what it inherits.
    expect(sandbox.readCallback(`{"event":"transfer.failed","__proto__":{"data":${JSON.stringify(genuine.data)}}}`).outcome).toBeNull();
  });

  test("a reason is text kept short and storable; a success carries none", () => {
    expect(withData({ gateway_response: 42 }).reason).toBeNull();
    expect(withData({ gateway_response: "  " }).reason).toBeNull();
    expect(withData({ gateway_response: "bad\u0000name\ud800" }).reason).toBe("bad\ufffdname\ufffd");
    expect(withData({ gateway_response: "r".repeat(10_000) }).reason!.length).toBeLessThanOrEqual(300);
    expect(withData({ status: "success", gateway_response: "ignored" }, "transfer.success")).toMatchObject({ outcome: "success", reason: null });
  });

  test("property: whatever a body holds, an outcome is read only when the event, its status and every field agree", () => {
    const anyValue = fc.oneof(fc.jsonValue(), fc.constantFrom("transfer.success", "transfer.failed", "success", "failed", "reversed", "NGN", "TRF_x", "clm-x"));
    /** The genuine field most often, anything else or nothing otherwise. */
    const field = (genuineValue: unknown, ...others: fc.Arbitrary<unknown>[]) =>
      fc.oneof(
        { arbitrary: fc.constant(genuineValue), weight: 3 },
        { arbitrary: fc.oneof(anyValue, ...others), weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      );
    let agreed = 0;
    fc.assert(
      fc.property(
        fc.record({
          event: fc.oneof(fc.constantFrom("transfer.success", "transfer.failed", "transfer.reversed"), anyValue),
          reference: field(genuine.data.reference),
          transfer_code: field(genuine.data.transfer_code),
          amount: field(genuine.data.amount, fc.integer(), fc.double(), fc.bigInt().map(String)),
          currency: field(genuine.data.currency),
          status: fc.constantFrom("success", "failed", "reversed", "pending"),
        }),
        ({ event, ...data }) => {
          const callback = read({ event, data });
          if (callback.outcome === null) return;
          agreed++;
          expect(`transfer.${callback.outcome}`).toBe(event as string);
          expect(data.status).toBe(callback.outcome);
          expect(data.currency).toBe("NGN");
          expect(Number.isSafeInteger(data.amount) && (data.amount as number) > 0).toBe(true);
          expect(callback.amountKobo).toBe(data.amount as number);
          expect(callback.reference).toBe(data.reference as string);
          expect(callback.providerReference).toBe(data.transfer_code as string);
        },
      ),
      { numRuns: 2_000 },
    );
    // Not vacuous: some bodies did agree in every field.
    expect(agreed).toBeGreaterThan(0);
  });
});

describe("the configured provider", () => {
  test("test-mode claims always use the sandbox; live ones the configured provider (the sandbox, the only one built in); one per configuration", async () => {
    expect(payoutProvider(config, "test").name).toBe("sandbox");
    expect(payoutProvider(config, "live").name).toBe("sandbox");
    expect(payoutProvider(config, "live")).toBe(payoutProvider(config, "live"));
    const state: TransferState = await payoutProvider(config, "test").queryTransfer(transferTo("0123456784"));
    expect(state.status).toBe("pending");
  });

  test("the settings: PAYOUT_PROVIDER is sandbox only, PAYOUT_PROVIDER_SECRET at least 16 characters, with a development default", () => {
    expect(config.PAYOUT_PROVIDER).toBe("sandbox");
    expect(config.PAYOUT_PROVIDER_SECRET.length).toBeGreaterThanOrEqual(16);
    expect(() => loadConfig({ PAYOUT_PROVIDER: "paystack" })).toThrow(/PAYOUT_PROVIDER/);
    expect(() => loadConfig({ PAYOUT_PROVIDER_SECRET: "short" })).toThrow(/PAYOUT_PROVIDER_SECRET/);
  });
});
