/** Consumers: the wire seed of `prfl entity` (spec 2.3) and the portal form that sends it, in one home. */
import { z } from "zod";
import { isoDate, phoneNumber, text } from "../../core/validation";
import type { FormEntry } from "../../products/types";

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

// The portal's consumer form: the fields of `prfl entity`, one input per wire path.
const SOCIAL_ID_TYPES = [
  { value: "nidd", label: "National identity number (NIN)" },
  { value: "dlcn", label: "Driver's licence" },
  { value: "ipss", label: "International passport" },
  { value: "vcrd", label: "Voter's card" },
  { value: "bvnn", label: "Bank verification number (BVN)" },
];

const contact: FormEntry[] = [
  {
    kind: "phone",
    path: "phoneNo",
    label: "Phone number",
    hint: "A Nigerian number as you would dial it (0803 123 4567), or another country's with its + code",
  },
  { kind: "text", path: "eMail", label: "E-mail", hint: "Registering the same e-mail again updates that consumer. Required for marine cover." },
  { kind: "textarea", path: "addrss.addrss", label: "Address" },
];

/** Individuals (class h) and organisations (class o) fill different fields; both send the same seed shape. */
export function consumerForm(consumerClass: "h" | "o"): readonly FormEntry[] {
  if (consumerClass === "o")
    return [
      { kind: "text", path: "name.brand", label: "Organisation name", required: true },
      ...contact,
      { kind: "text", path: "rc", label: "Company registration number (RC)", hint: "Marine cover" },
      { kind: "text", path: "taxId", label: "Tax identification number", hint: "Marine cover" },
      { kind: "document", path: "cac02", label: "CAC form 2", hint: "PDF or image; marine cover" },
      { kind: "document", path: "cac07", label: "CAC form 7", hint: "PDF or image; marine cover" },
    ];
  return [
    { kind: "text", path: "name.first", label: "First name", required: true },
    { kind: "text", path: "name.middle", label: "Middle name" },
    { kind: "text", path: "name.last", label: "Last name", hint: "Needed by most products" },
    {
      kind: "select",
      path: "gender",
      label: "Gender",
      options: [
        { value: "f", label: "Female" },
        { value: "m", label: "Male" },
      ],
    },
    { kind: "date", path: "dob.date", label: "Date of birth" },
    { kind: "document", path: "dob.proof", label: "Proof of date of birth", hint: "Optional; PDF or image" },
    ...contact,
    {
      kind: "select",
      path: "mrtlStatus",
      label: "Marital status",
      options: ["single", "married", "divorced", "widowed"].map((value) => ({ value, label: value[0]!.toUpperCase() + value.slice(1) })),
    },
    { kind: "text", path: "ntnlty", label: "Nationality" },
    { kind: "text", path: "stateOfOrigin", label: "State of origin" },
    { kind: "select", path: "socialID.type", label: "Identity document", options: SOCIAL_ID_TYPES, hint: "Needed for comprehensive vehicle and marine cover" },
    { kind: "text", path: "socialID.id", label: "Identity number" },
    { kind: "document", path: "socialID.image", label: "Scan of the identity document", hint: "PDF or image" },
    { kind: "text", path: "taxId", label: "Tax identification number", hint: "Marine cover" },
  ];
}

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
