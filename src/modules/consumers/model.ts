/** Consumers: the wire seed of `prfl entity` (spec 2.3) and the portal form that sends it, in one home. */
import { z } from "zod";
import { isoDate, phoneNumber, text } from "../../core/validation";

const base64Document = z.string().min(1);

const birthDate = isoDate.refine((d) => {
  const date = new Date(`${d}T00:00:00Z`);
  const now = new Date();
  return date <= now && now.getUTCFullYear() - date.getUTCFullYear() <= 120;
}, "must be a date of birth in the past (at most 120 years ago)");

/** The seed of `prfl entity` (spec 2.3). Unknown fields are refused so typos surface. */
export const consumerSeed = z.strictObject({
  type: z.enum(["s"]).optional(),
  class: z.enum(["h", "o"]),
  name: z.strictObject({ first: text(100).optional(), last: text(100).optional(), middle: text(100).optional(), brand: text(200).optional() }).optional(),
  gender: z.enum(["m", "f"]).optional(),
  dob: z.strictObject({ date: birthDate.optional(), proof: base64Document.optional() }).optional(),
  addrss: z.strictObject({ addrss: text(500) }).optional(),
  phoneNo: phoneNumber.optional(),
  eMail: z.email("must be a valid e-mail address").max(254).optional(),
  ntnlty: text(100).optional(),
  stateOfOrigin: text(100).optional(),
  mrtlStatus: z.enum(["single", "married", "divorced", "widowed"]).optional(),
  socialID: z
    .strictObject({
      type: z.enum(["nidd", "dlcn", "ipss", "vcrd", "bvnn"]).optional(),
      id: text(50).optional(),
      image: base64Document.optional(),
    })
    .optional(),
  taxId: text(50).optional(),
  rc: text(50).optional(),
  cac02: base64Document.optional(),
  cac07: base64Document.optional(),
});

export type ConsumerSeed = z.output<typeof consumerSeed>;

/** Wire paths of the fields that carry base64 documents (stored as bytes, not in the profile). */
export const DOCUMENT_FIELDS = ["dob.proof", "socialID.image", "cac02", "cac07"] as const;

/** A stored profile as form values (documents are never shown back; a new upload replaces one). */
export function profileValues(profile: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (value && typeof value === "object") walk(value as Record<string, unknown>, path);
      else if (value !== undefined && value !== null) values[path] = String(value);
    }
  };
  walk(profile, "");
  return values;
}
