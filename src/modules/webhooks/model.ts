/** The webhook commands' seeds; the portal parses its forms with the same ones, so both refuse in the same words. */
import { z } from "zod";
import { normaliseUuid } from "../../core/ids";
import { pageSeed } from "../../core/pagination";
import { text } from "../../core/validation";
import { WEBHOOK_EVENT_TYPES } from "./event-types";
import { DELIVERY_STATUSES } from "./schema";

const uuidField = (what: string) =>
  z
    .string()
    .refine((s) => normaliseUuid(s) !== null, `must be a UUID: the ${what} returned earlier`)
    .transform((s) => normaliseUuid(s)!);

const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES))
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)]);

export const registerInput = z.strictObject({
  url: z.string().trim().min(1),
  /** Event types delivered to this endpoint; absent or empty: every type. */
  events: eventsField.optional(),
  description: text(200).optional(),
});

export const updateInput = z.strictObject({
  endpointId: uuidField("endpointId webhook register"),
  url: z.string().trim().min(1).optional(),
  events: eventsField.optional(),
  description: text(200).optional(),
  enabled: z.boolean().optional(),
  rotateSecret: z.literal(true).optional(),
});

export const endpointInput = z.strictObject({ endpointId: uuidField("endpointId webhook register") });

export const deliveriesInput = pageSeed.extend({
  endpointId: uuidField("endpointId webhook register").optional(),
  eventType: z.enum(WEBHOOK_EVENT_TYPES).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
});

export const replayInput = z.strictObject({ deliveryId: uuidField("deliveryId webhook deliveries") });

export const defaultSecretInput = z.strictObject({ rotate: z.literal(true).optional() });

// --- The portal's forms, read as the seeds above ---

/** The ticked event types (one checkbox sends a string, several an array). */
const chosenEvents = (body: unknown): string[] => {
  const events = (body as { events?: unknown } | undefined)?.events;
  return Array.isArray(events) ? events.filter((e): e is string => typeof e === "string") : typeof events === "string" ? [events] : [];
};

/** The register and settings forms as the command seeds take them, so the same schema words the refusals. */
export const endpointSeedFrom = (form: Record<string, string | undefined>, body: unknown) => ({
  url: form.url ?? "",
  events: chosenEvents(body),
  ...(form.description?.trim() ? { description: form.description } : {}),
});
