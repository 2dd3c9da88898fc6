/** What the partner pages are asked for: a key label and an account mode, refused in the words of the wire. */
import { CommandError } from "../../core/errors";
import { KEY_LABELS, type KeyLabel } from "./service";

export function keyLabelOf(value: string | undefined): KeyLabel {
  if (KEY_LABELS.includes(value as KeyLabel)) return value as KeyLabel;
  throw new CommandError(400, `label must be one of "test", "live", "legacy"; received ${JSON.stringify(value ?? null)}`);
}

export function modeOf(value: string | undefined): "test" | "live" {
  if (value === "test" || value === "live") return value;
  throw new CommandError(400, `mode must be "test" or "live"; received ${JSON.stringify(value ?? null)}`);
}
