/**
 * The examples of the consumers commands (CommandExample, src/http/registry.ts): the requests and answers
 * of /docs and /openapi.json, which test/reference.test.ts sends to the app. The refusals they show
 * are declared here too, and listed in their commands' errors.
 */
import { type CommandExample, refusal } from "../../http/registry";

export const BAD_PHONE = refusal(400, "seed.phoneNo must be +234 followed by 10 digits with no leading zero, e.g. +2348012345678");

/** The consumer every example that insures someone registers first. */
const adaeze = {
  type: "s",
  class: "h",
  name: { first: "Adaeze", last: "Okafor" },
  gender: "f",
  dob: { date: "1990-04-12" },
  addrss: { addrss: "12 Admiralty Way, Lekki, Lagos" },
  phoneNo: "+2348031234567",
  eMail: "adaeze@example.ng",
};

const listedAdaeze = { id: "{{consumer.id}}", id_uuid: "{{consumer.id_uuid}}", ...adaeze, documents: [], tmstmp: "{{timestamp}}", updated: "{{timestamp}}" };

/** prfl entity */
export const profileExamples: readonly CommandExample[] = [
  { name: "consumer", title: "Register an individual", cmmnd: "prfl entity", seed: adaeze, answer: { id: "{{hex32}}", id_uuid: "{{uuid}}" } },
  {
    name: "consumer-again",
    title: "The same e-mail again: the same consumer, with the fields sent updated",
    cmmnd: "prfl entity",
    seed: { class: "h", eMail: "adaeze@example.ng", mrtlStatus: "married" },
    after: ["consumer"],
    answer: { id: "{{consumer.id}}", id_uuid: "{{consumer.id_uuid}}" },
  },
  {
    name: "consumer-exporter",
    title: "Register an individual for marine cover: identity document and tax id (spec 2.3)",
    cmmnd: "prfl entity",
    seed: {
      class: "h",
      name: { first: "Emeka", last: "Nwosu" },
      socialID: {
        type: "nidd",
        id: "12345678901",
        image: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      },
      taxId: "TIN-0012345",
      addrss: { addrss: "3 Wharf Road, Apapa, Lagos" },
      phoneNo: "+2348051234567",
      eMail: "emeka@nwosuexports.ng",
    },
    answer: { id: "{{hex32}}", id_uuid: "{{uuid}}" },
  },
  {
    name: "consumer-organisation",
    title: "Register an organisation",
    cmmnd: "prfl entity",
    seed: {
      class: "o",
      name: { brand: "Okafor Logistics Ltd" },
      rc: "RC1234567",
      addrss: { addrss: "5 Creek Road, Apapa, Lagos" },
      phoneNo: "+2348091234567",
      eMail: "ops@okaforlogistics.ng",
    },
    answer: { id: "{{hex32}}", id_uuid: "{{uuid}}" },
  },
  {
    name: "consumer-bad-phone",
    title: "A Nigerian number keeping its leading zero",
    cmmnd: "prfl entity",
    seed: { class: "h", name: { first: "Adaeze" }, phoneNo: "+23408031234567" },
    refusal: BAD_PHONE,
  },
];

/** dump entt_*CSTMRS */
export const consumerListExamples: readonly CommandExample[] = [
  {
    name: "consumers",
    title: "The consumers registered so far",
    cmmnd: "dump entt_*CSTMRS",
    seed: { limit: 20 },
    after: ["consumer"],
    answer: { list: [listedAdaeze], nextCursor: null },
  },
];

/** dump entt_*CSTMRS_ADMIN */
export const consumerListAdminExamples: readonly CommandExample[] = [
  {
    name: "consumers-admin",
    title: "The newest consumer of any partner",
    cmmnd: "dump entt_*CSTMRS_ADMIN",
    seed: { limit: 1 },
    after: ["consumer"],
    answer: { list: [{ ...listedAdaeze, partnerId: "{{partnerId}}" }], nextCursor: "{{cursor}}" },
  },
];
