import type { KeySlot } from "../../../views/partners/keys";
import { KEY_LABELS, type PartnerKey } from "./service";

/** One slot per label: its active key, or when it has none, when the last one was revoked. */
export const keySlots = (keys: readonly PartnerKey[]): KeySlot[] =>
  KEY_LABELS.map((label) => {
    const ofLabel = keys.filter((k) => k.label === label);
    const active = ofLabel.find((k) => !k.revokedAt);
    return { label, active: active ? { id: active.id, createdAt: active.createdAt } : null, revokedAt: active ? null : (ofLabel[0]?.revokedAt ?? null) };
  });
