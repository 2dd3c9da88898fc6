import type { ConsumerChoice } from "../../../views/quotes/quote";
import { CommandError } from "../../core/errors";
import { normaliseUuid } from "../../core/ids";
import type { Database } from "../../db/client";
import { problemOf } from "../../portal/page";
import { isOnlyMissing } from "../../portal/words";
import { findProduct, type Product } from "../../products";
import { consumerName, findConsumer, listConsumers, wireConsumerId } from "../consumers";
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

/** The consumers to pick from: the newest hundred, and the one the form names when it is older. */
async function consumerChoices(db: Database, partnerId: string, consumer: string | undefined): Promise<ConsumerChoice[]> {
  const recent = (await listConsumers(db, { partnerId }, { limit: 100 })).items;
  const chosenId = consumer ? normaliseUuid(consumer) : null;
  const chosen = chosenId && !recent.some((c) => c.id === chosenId) ? await findConsumer(db, partnerId, chosenId) : null;
  return (chosen ? [chosen, ...recent] : recent).map((c) => ({
    wireId: wireConsumerId(c.id),
    name: `${consumerName(c.profile) || "(no name)"}${c.profile.eMail ? ` · ${c.profile.eMail}` : ""}`,
  }));
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
    consumers: await consumerChoices(db, partnerId, values.consumer),
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
