import { coverPeriod } from "../../../views/format";
import type { ConfirmStepProps } from "../../../views/portal/confirm";
import type { ConsumerChoices } from "../../../views/quotes/quote";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import { formatNaira } from "../../core/money";
import type { Database } from "../../db/client";
import { problemOf } from "../../portal/page";
import { isOnlyMissing } from "../../portal/words";
import { findProduct, type Product, productName } from "../../products";
import { consumerName, findConsumer, listConsumers, wireConsumerId } from "../consumers";
import type { PolicyRecord } from "../policies";
import { quoteSeedFromForm } from "../quotes";
import { productOptions } from "./presenter";

type FormValues = Record<string, string | undefined>;

/** The product a form names, or none when it names none or an unknown one (the page then asks for one). */
export const productOf = (code: string | undefined): Product | undefined => {
  if (!code) return undefined;
  try {
    return findProduct(code);
  } catch {
    return undefined;
  }
};

/** How many consumers the picker lists: the newest, or the newest a search finds. */
const CHOICES = 100;

/**
 * The consumers to pick from, newest first: the newest hundred, or those the search finds (name,
 * phone as typed, e-mail); and the one the form names when the list does not hold it, so a choice
 * is never lost.
 */
export async function consumerChoices(db: Database, partnerId: string, consumer: string | undefined, search: string | undefined): Promise<ConsumerChoices> {
  const query = (search ?? "").trim().slice(0, 100);
  const list = await listConsumers(db, { partnerId, search: query }, { limit: CHOICES });
  const chosenId = consumer ? normaliseUuid(consumer) : null;
  const chosen = chosenId && !list.items.some((c) => c.id === chosenId) ? await findConsumer(db, partnerId, chosenId) : null;
  return {
    search: query,
    options: (chosen ? [chosen, ...list.items] : list.items).map((c) => ({
      wireId: wireConsumerId(c.id),
      name: `${consumerName(c.profile) || "(no name)"}${c.profile.phoneNo ? ` · ${c.profile.phoneNo}` : ""}${c.profile.eMail ? ` · ${c.profile.eMail}` : ""}`,
    })),
    found: list.items.length,
    more: list.nextCursor !== null,
  };
}

/** What the quote-and-issue page shows for these form values, beside the premium, the problem and the viewer. */
export async function quotePageView(db: Database, partnerId: string, values: FormValues) {
  const product = productOf(values.product);
  const forms = product?.family.forms(product.type);
  // The quote's inputs serve the policy too where both name the same field (insrncDrtn, the vehicle's value…):
  // issueSeedsFromForm carries them over.
  const quotePaths = new Set(forms?.quote.flatMap((e) => [e.path, `addtnlFact.${e.path}`]));
  return {
    products: productOptions(),
    product: product?.code,
    quoteEntries: forms?.quote ?? [],
    policyEntries: forms?.policy.filter((e) => !quotePaths.has(e.path)) ?? [],
    values: { id: crypto.randomUUID(), ...values },
    consumers: await consumerChoices(db, partnerId, values.consumer, values.q),
  };
}

/** The premium by the product's own rule, without storing a quote (only issuing does); a refusal is shown in its place. */
export function premiumPreview(values: FormValues) {
  const product = productOf(values.product);
  if (!product) return undefined;
  try {
    return { kobo: product.family.quote(product.type, quoteSeedFromForm(product, values)).premiumKobo };
  } catch (error) {
    // A field still empty is not a mistake while the form is being filled in.
    if (error instanceof CommandError && isOnlyMissing(error.message)) return undefined;
    return { problem: problemOf(error) };
  }
}

/** What happens after a live policy's premium is paid, by how it is decided. */
const AFTER_PAYMENT: Record<"a" | "insurer" | "review", string> = {
  a: "The policy is approved at once and its certificate issued.",
  insurer: "The policy goes to the insurer, who decides it; if it is declined, the premium comes back to your wallet.",
  review: "The policy waits for the insurer's staff to review it; if it is declined, the premium comes back to your wallet.",
};

/**
 * The confirmation of a live policy before it is issued and paid: the product, the insured, the
 * cover and the premium taken from the wallet, with the balance before and after.
 */
export function issueStep(policy: PolicyRecord, insured: string, balanceKobo: number): Pick<ConfirmStepProps, "heading" | "lines" | "consequences" | "button"> {
  const product = productName(policy.productCode);
  return {
    heading: `Issue a live policy for ${insured}?`,
    lines: [
      ["Product", product],
      ["Insured", insured],
      ["Transaction reference", policy.reference],
      ["Cover", coverPeriod(policy.coverStart, policy.coverEnd)],
      ["Premium", formatNaira(policy.premiumKobo)],
      ["Wallet balance", `${formatNaira(balanceKobo)} now, ${formatNaira(balanceKobo - policy.premiumKobo)} after`],
    ],
    consequences: [
      `${formatNaira(policy.premiumKobo)} is taken from your wallet now: this is a live policy, billed.`,
      AFTER_PAYMENT[policy.status === "a" ? "a" : policy.route === "insurer" ? "insurer" : "review"],
    ],
    button: `Issue and pay ${formatNaira(policy.premiumKobo)}`,
  };
}
