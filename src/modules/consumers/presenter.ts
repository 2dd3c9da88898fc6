import type { ConsumerRow } from "../../../views/consumers/consumers";
import { type ConsumerRecord, wireConsumerId } from "./service";

/** How a consumer is named on every page: a business by its brand, a person by their names. */
export function consumerName(profile: Record<string, unknown>): string {
  const name = (profile.name ?? {}) as Record<string, string | undefined>;
  return name.brand ?? [name.first, name.middle, name.last].filter(Boolean).join(" ");
}

export const consumerRow = (c: ConsumerRecord): ConsumerRow => ({
  id: c.id,
  wireId: wireConsumerId(c.id),
  name: consumerName(c.profile),
  consumerClass: c.class,
  email: c.profile.eMail as string | undefined,
  phone: c.profile.phoneNo as string | undefined,
  documents: c.documents,
  createdAt: c.createdAt,
});
