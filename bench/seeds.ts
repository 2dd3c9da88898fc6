/** The seeds the benchmarks send: a new consumer each time, and a third-party vehicle policy with a new reference. */

const runTag = Date.now().toString(36);
let registrations = 0;

/** An individual consumer with an e-mail no earlier request used (so each registration creates one). */
export const benchPerson = () => ({
  type: "s",
  class: "h",
  name: { first: "Ada", last: "Obi" },
  gender: "f",
  dob: { date: "1990-04-12" },
  addrss: { addrss: "12 Admiralty Way, Lekki, Lagos" },
  phoneNo: "+2348031234567",
  eMail: `ada.${runTag}.${++registrations}@bench.example`,
});

/** An insure seed for vhcl-tprt-1111 with a new transaction reference. */
export const benchInsureSeed = () => ({
  ctgry: "vhcl",
  type: "tprt",
  pckg: "1111",
  id: crypto.randomUUID(),
  insrncDrtn: "1y",
  addtnlFact: { brand: "Toyota", model: "Corolla", year: "2018", chsssId: "2T1BURHE0JC074316", engineId: "2ZR1234567", rgstrtId: "ABC123DE" },
});
