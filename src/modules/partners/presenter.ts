import type { KeySlot } from "../../../views/partners/keys";
import type { ConfirmStepProps } from "../../../views/portal/confirm";
import { KEY_LABELS, type PartnerKey } from "./service";

/** One slot per label: its active key, or when it has none, when the last one was revoked. */
export const keySlots = (keys: readonly PartnerKey[]): KeySlot[] =>
  KEY_LABELS.map((label) => {
    const ofLabel = keys.filter((k) => k.label === label);
    const active = ofLabel.find((k) => !k.revokedAt);
    return { label, active: active ? { id: active.id, createdAt: active.createdAt } : null, revokedAt: active ? null : (ofLabel[0]?.revokedAt ?? null) };
  });

/** What suspending a partner stops (service.ts setSuspended, accounts' session lookup), or what reinstating gives back, asked before either. */
export function accountChangeStep(name: string, suspend: boolean): Pick<ConfirmStepProps, "heading" | "consequences" | "button" | "danger" | "back"> {
  return suspend
    ? {
        heading: `Suspend ${name}?`,
        consequences: [
          `Every API key of ${name} is refused from its next request: their systems can no longer quote, issue, cancel or claim.`,
          `Their staff are signed out of the portal at once and cannot sign in again.`,
          "Their policies stay in force and their wallet keeps its balance. Reinstating the account lets them back in.",
        ],
        button: `Suspend ${name}`,
        danger: true,
        back: { label: `Keep ${name} active`, href: "/admin/partners" },
      }
    : {
        heading: `Reinstate ${name}?`,
        consequences: [`The API keys of ${name} that were not revoked work again at once.`, "Their staff can sign in to the portal again."],
        button: `Reinstate ${name}`,
        back: { label: `Keep ${name} suspended`, href: "/admin/partners" },
      };
}

/** What a confirmed suspension or reinstatement did. */
export const accountChangeDone = (name: string, suspend: boolean) =>
  suspend
    ? `${name} is suspended: its keys are refused and its staff are signed out.`
    : `${name} is reinstated: its keys work again and its staff can sign in.`;
