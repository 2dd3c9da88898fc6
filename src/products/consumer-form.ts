/**
 * The portal's consumer form: the fields of `prfl entity` (spec 2.3), one input per wire path. Below
 * the modules with the product forms, because the portal's words (field labels) read it too.
 */
import type { FormEntry } from "./types";

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
