import { createHash } from "node:crypto";
import { hmacSha512, type SignedCallback, signatureMatches } from "../../core/signatures";
import { clip, quoted, storableText } from "../../core/validation";
import { bankName, isBankCode } from "./banks";
import { isOrganisationName, namesMatch, nameWords } from "./names";
import {
  type AccountLookup,
  type BankAccount,
  type PayoutCallback,
  type PayoutProvider,
  PayoutRefused,
  type PayoutTransfer,
  type TransferState,
} from "./provider";

/**
 * What the sandbox does with an account, chosen by its ten-digit number (docs/payouts.md and
 * docs/sandbox.md describe them): `0000000000` is no account at all; otherwise the last digit.
 * Any other account belongs to the insured (the name the claim expects, as banks print names) and
 * is paid at once.
 */
const NO_SUCH_ACCOUNT = "0000000000";

const SANDBOX_SCENARIOS = [
  { ending: "9", scenario: "someone_else", summary: "the account belongs to someone else: the name enquiry finds another name (a mismatch)" },
  {
    ending: "8",
    scenario: "bank_style",
    summary: "the insured's name as banks print it (upper case, surname first, a middle name added): still a match",
  },
  { ending: "1", scenario: "fails", summary: "the transfer fails at once (transfer.failed: Dormant account)" },
  { ending: "2", scenario: "reversed", summary: "the transfer succeeds, then is reversed (transfer.success, then transfer.reversed)" },
  { ending: "3", scenario: "callback_lost", summary: "the transfer succeeds but its callback is lost: the background check finds it" },
  { ending: "4", scenario: "stays_pending", summary: "the transfer stays pending: no callback, and asking says pending" },
] as const;

type Scenario = (typeof SANDBOX_SCENARIOS)[number]["scenario"] | "no_such_account" | "success";

const scenarioOf = (accountNumber: string): Scenario =>
  accountNumber === NO_SUCH_ACCOUNT ? "no_such_account" : (SANDBOX_SCENARIOS.find((s) => accountNumber.endsWith(s.ending))?.scenario ?? "success");

/** The words of the sandbox's failure and reversal, as a bank's switch gives them. */
const FAILED = "Dormant account";
const REVERSED = "Reversed by the beneficiary bank: the account could not be credited";
/** Paystack's words when an account cannot be resolved. */
const UNRESOLVED = "Could not resolve account name. Check parameters or try again.";

/** Longest reference, account name and narration the sandbox takes (Paystack's own limits are not published; these are generous). */
const MAX_REFERENCE = 100;
const MAX_ACCOUNT_NAME = 100;
const MAX_NARRATION = 100;
/** Longest failure reason a callback's reader keeps. */
const MAX_REASON = 300;

/** Paystack: "a unique identifier (in lowercase) … Only -, _ and alphanumeric characters allowed". */
const REFERENCE = /^[a-z0-9_-]+$/;
const TRANSFER_CODE = /^TRF_[A-Za-z0-9]{1,64}$/;

/** The holders of the accounts that belong to someone else: the first that is not the insured's name within the tolerance. */
const OTHER_HOLDERS = ["ADEBAYO OLUWASEUN TUNDE", "OKAFOR CHIDINMA GRACE", "MUSA IBRAHIM SANI", "SANDBOX THIRD PARTY"];
/** The middle name a bank adds in the `8` scenario: the first the name does not hold already. */
const ADDED_MIDDLE_NAMES = ["OLUWASEUN", "CHIOMA", "AMINA"];
const NOBODY = "SANDBOX ACCOUNT HOLDER";

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/** The provider's reference of a transfer, from ours alone: every process, and every repeat, names the same transfer. */
const transferCode = (reference: string) => `TRF_${digest(`transfer:${reference}`).slice(0, 16)}`;
const recipientCode = (account: BankAccount) => `RCP_${digest(`recipient:${account.bankCode}:${account.accountNumber}`).slice(0, 16)}`;

/** Why an account cannot be paid, or null when it can: the checks a real provider makes before anything is sent. */
function accountProblem(account: BankAccount): PayoutRefused | null {
  const { bankCode, accountNumber } = account ?? ({} as BankAccount);
  if (typeof bankCode !== "string" || !isBankCode(bankCode)) return new PayoutRefused("unknown_bank", `unknown bank: no bank has the code ${quoted(bankCode)}`);
  if (typeof accountNumber !== "string" || !/^\d{10}$/.test(accountNumber))
    return new PayoutRefused("invalid_account", "an account number (NUBAN) is 10 digits");
  if (accountNumber === NO_SUCH_ACCOUNT) return new PayoutRefused("no_such_account", UNRESOLVED);
  return null;
}

/** The transfer checked as a real provider checks it; throws PayoutRefused. */
function checkTransfer(transfer: PayoutTransfer): void {
  const { reference, amountKobo, recipient, narration } = transfer ?? ({} as PayoutTransfer);
  if (typeof reference !== "string" || reference.length > MAX_REFERENCE || !REFERENCE.test(reference))
    throw new PayoutRefused(
      "invalid_reference",
      `a transfer reference is 1 to ${MAX_REFERENCE} lower-case letters, digits, "-" and "_" (received ${quoted(reference)})`,
    );
  if (!Number.isSafeInteger(amountKobo) || amountKobo < 1)
    throw new PayoutRefused("invalid_amount", `an amount is a whole number of kobo from 1 (received ${quoted(amountKobo)})`);
  const problem = accountProblem(recipient);
  if (problem) throw problem;
  const name = recipient.accountName;
  if (typeof name !== "string" || name.trim() === "" || name.length > MAX_ACCOUNT_NAME || storableText(name) !== name)
    throw new PayoutRefused("invalid_account", `the recipient's account name is 1 to ${MAX_ACCOUNT_NAME} characters of text`);
  if (
    typeof narration !== "string" ||
    narration.trim() === "" ||
    narration.length > MAX_NARRATION ||
    /\p{Cc}/u.test(narration) ||
    storableText(narration) !== narration
  )
    throw new PayoutRefused("invalid_narration", `a narration is 1 to ${MAX_NARRATION} characters on one line`);
}

/** The insured's name as a bank prints it: upper case, no accents, no punctuation, no titles. */
function printed(expectedName: string): string {
  const words = nameWords(expectedName);
  return words.length > 0 ? words.join(" ") : NOBODY;
}

/** The insured's name as some banks hold it: surname first and a middle name added (a person), or the company word spelt the other way (an organisation). */
function bankStyle(expectedName: string): string {
  const words = nameWords(expectedName);
  if (words.length === 0) return NOBODY;
  if (isOrganisationName(words)) return words.map((word) => (word === "LTD" ? "LIMITED" : word === "LIMITED" ? "LTD" : word)).join(" ");
  // A one-word name matches only itself: the bank holds it as it is.
  if (words.length === 1) return words[0]!;
  const added = ADDED_MIDDLE_NAMES.find((name) => !words.includes(name))!;
  const [first, ...rest] = words;
  const last = rest.pop()!;
  // A name that already gives middle names keeps them; one without gets one, as banks hold more names than forms ask for.
  return [last, first, ...(rest.length > 0 ? rest : [added])].join(" ");
}

/** Someone else's name: never the insured's within the tolerance. */
const someoneElse = (expectedName: string) => OTHER_HOLDERS.find((name) => !namesMatch(expectedName, name).match) ?? NOBODY;

/** An own property of a JSON object, or undefined (nothing inherited is read). */
function own(node: unknown, key: string): unknown {
  if (node === null || typeof node !== "object" || Array.isArray(node)) return undefined;
  return Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

const OUTCOMES = { "transfer.success": "success", "transfer.failed": "failed", "transfer.reversed": "reversed" } as const;

/**
 * The built-in payout provider: behaves like Paystack transfers without a network — the account
 * name enquiry, a recipient of type `nuban`, a transfer idempotent on our reference, and signed
 * `transfer.success`, `transfer.failed` and `transfer.reversed` callbacks in Paystack's shape. Its
 * state is its inputs (the account number's scenario, the reference's transfer code), so every
 * process and the background check agree on every transfer. The one thing it remembers, in this
 * process only, is what each reference was used for, to refuse a different amount or account
 * under a used reference as Paystack does; that memory never changes an answer otherwise, and a
 * process that never saw the first request cannot refuse the second (the caller's own records of
 * its references are the guard that holds everywhere).
 */
export function sandboxPayoutProvider(secret: string): PayoutProvider {
  const used = new Map<string, string>();
  const REMEMBERED = 10_000;
  const remember = (reference: string, fingerprint: string) => {
    if (used.size >= REMEMBERED) used.delete(used.keys().next().value!);
    used.set(reference, fingerprint);
  };

  const callback = (transfer: PayoutTransfer, event: keyof typeof OUTCOMES, gatewayResponse: string | null): SignedCallback => {
    const { recipient } = transfer;
    const body = JSON.stringify({
      event,
      data: {
        amount: transfer.amountKobo,
        currency: "NGN",
        domain: "test",
        failures: null,
        // Paystack's `reason` is the narration the transfer was sent with; why it failed is `gateway_response`.
        reason: transfer.narration,
        reference: transfer.reference,
        source: "balance",
        source_details: null,
        status: OUTCOMES[event],
        titan_code: null,
        transfer_code: transferCode(transfer.reference),
        transferred_at: null,
        recipient: {
          active: true,
          currency: "NGN",
          description: null,
          domain: "test",
          email: null,
          metadata: null,
          name: recipient.accountName,
          recipient_code: recipientCode(recipient),
          type: "nuban",
          is_deleted: false,
          details: {
            authorization_code: null,
            account_number: recipient.accountNumber,
            account_name: recipient.accountName,
            bank_code: recipient.bankCode,
            bank_name: bankName(recipient.bankCode),
          },
        },
        session: { provider: null, id: null },
        fee_charged: 0,
        gateway_response: gatewayResponse,
      },
    });
    return { body, signature: hmacSha512(secret, body) };
  };

  return {
    name: "sandbox",
    signatureHeader: "x-paystack-signature",
    async resolveAccount(account, hint): Promise<AccountLookup> {
      const problem = accountProblem(account);
      if (problem) return { status: "not_found", reason: problem.message };
      const expectedName = typeof hint?.expectedName === "string" ? hint.expectedName : "";
      const scenario = scenarioOf(account.accountNumber);
      const accountName = scenario === "someone_else" ? someoneElse(expectedName) : scenario === "bank_style" ? bankStyle(expectedName) : printed(expectedName);
      return { status: "found", accountName };
    },
    async createTransfer(transfer) {
      checkTransfer(transfer);
      const { reference, amountKobo, recipient } = transfer;
      const fingerprint = `${amountKobo}:${recipient.bankCode}:${recipient.accountNumber}`;
      const earlier = used.get(reference);
      if (earlier !== undefined && earlier !== fingerprint)
        throw new PayoutRefused("reference_reused", `the reference ${quoted(reference)} was used for another transfer (another amount or account)`);
      if (earlier === undefined) remember(reference, fingerprint);
      // As Paystack answers with transfer OTP disabled: pending, the outcome following by callback.
      return { providerReference: transferCode(reference), status: "pending" };
    },
    async queryTransfer(transfer): Promise<TransferState> {
      checkTransfer(transfer);
      const amountKobo = transfer.amountKobo;
      switch (scenarioOf(transfer.recipient.accountNumber)) {
        case "fails":
          return { status: "failed", reason: FAILED, amountKobo };
        case "reversed":
          return { status: "reversed", reason: REVERSED, amountKobo };
        case "stays_pending":
          return { status: "pending", amountKobo };
        default:
          return { status: "success", amountKobo };
      }
    },
    verifySignature: (rawBody, signature) => signatureMatches(secret, rawBody, signature),
    readCallback(rawBody): PayoutCallback {
      const parsed: unknown = JSON.parse(rawBody);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not the provider's JSON: the body is not an object");
      const text = (value: unknown, max: number) => (typeof value === "string" && value.length <= max && storableText(value) === value ? value : null);
      const event = text(own(parsed, "event"), 100);
      const data = own(parsed, "data");
      const referenceValue = text(own(data, "reference"), MAX_REFERENCE);
      const reference = referenceValue !== null && REFERENCE.test(referenceValue) ? referenceValue : null;
      const codeValue = text(own(data, "transfer_code"), 100);
      const providerReference = codeValue !== null && TRANSFER_CODE.test(codeValue) ? codeValue : null;
      const amount = own(data, "amount");
      const amountKobo = typeof amount === "number" && Number.isSafeInteger(amount) && amount > 0 ? amount : null;
      const response = own(data, "gateway_response");
      const reason = typeof response === "string" && response.trim() !== "" ? clip(storableText(response.trim()).replace(/\p{Cc}+/gu, " "), MAX_REASON) : null;
      const implied = event !== null && Object.hasOwn(OUTCOMES, event) ? OUTCOMES[event as keyof typeof OUTCOMES] : null;
      const trusted =
        implied !== null &&
        reference !== null &&
        providerReference !== null &&
        amountKobo !== null &&
        own(data, "currency") === "NGN" &&
        own(data, "status") === implied;
      return { event, reference, providerReference, outcome: trusted ? implied : null, amountKobo, reason: implied === "success" ? null : reason };
    },
    immediateCallbacks(transfer) {
      checkTransfer(transfer);
      switch (scenarioOf(transfer.recipient.accountNumber)) {
        case "fails":
          return [callback(transfer, "transfer.failed", FAILED)];
        case "reversed":
          return [callback(transfer, "transfer.success", null), callback(transfer, "transfer.reversed", REVERSED)];
        case "callback_lost":
        case "stays_pending":
          return [];
        default:
          return [callback(transfer, "transfer.success", null)];
      }
    },
  };
}
