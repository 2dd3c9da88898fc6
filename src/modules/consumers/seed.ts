import { z } from "zod";
import { isoDate, text } from "../../core/validation";

/** International format with a + prefix; Nigerian numbers are +234 and 10 digits, no leading zero (spec 2.3). */
export const phoneNumber = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, "must be in international format with a + prefix, e.g. +2348012345678")
  .refine((p) => !p.startsWith("+234") || /^\+234[1-9]\d{9}$/.test(p), "must be +234 followed by 10 digits with no leading zero, e.g. +2348012345678");

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
