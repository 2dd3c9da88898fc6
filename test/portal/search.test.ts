/**
 * The search box (issue 36): each kind of identifier, typed as people type it, finds its record on
 * the partner's /portal/search and the operator's /admin/search; a partner never sees another
 * partner's records; the operator sees whose each record is; empty, short and unsearchable queries
 * are answered in words.
 */
import { describe, expect, test } from "bun:test";
import { findPolicyByReference } from "../../src/modules/policies";
import { readQuery } from "../../src/modules/search/reading";
import { type TestPartner, testApp } from "../support/harness";
import { fullConsumer, insureSeed, newImei, productCases, watDate } from "../support/policies";
import { signedIn } from "./browser";

const t = await testApp();
const operator = await t.partner({ admin: true });

const randomDigits = (count: number) => Array.from({ length: count }, () => Math.floor(Math.random() * 10)).join("");
const randomLetters = (count: number) => Array.from({ length: count }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");

/** A partner's book with one of everything, every identifier unique to this run (the operator searches every partner's). */
async function book(p: TestPartner) {
  const mobile = `803${randomDigits(7)}`;
  const firstName = `Zeb${randomLetters(5)}`;
  const email = `${firstName}.${randomDigits(6)}@example.ng`;
  const name = { first: `${firstName[0]!.toUpperCase()}${firstName.slice(1)}`, last: "Okonkwo" };
  const consumer = (await p.run("prfl entity", { ...fullConsumer(), name, phoneNo: `+234${mobile}`, eMail: email })).id as string;
  const plate = `LND${randomDigits(3)}${randomLetters(2).toUpperCase()}`;
  const vehicle = await p.run(
    `entt_${consumer}: insure`,
    insureSeed(productCases["vhcl-tprt-1111"]!, { addtnlFact: { ...productCases["vhcl-tprt-1111"]!.addtnlFact(), rgstrtId: plate } }),
  );
  expect(vehicle.status).toBe("a");
  const imei = newImei();
  const phoneCover = await p.run(
    `entt_${consumer}: insure`,
    insureSeed(productCases["phnn-flx1-1111"]!, { addtnlFact: { brand: "Samsung", model: "Galaxy A54", uIdnt: imei } }),
  );
  expect(phoneCover.status).toBe("a");
  const claim = await p.run("claim submit", { policy: phoneCover.id, incidentDate: watDate(0), description: "Screen cracked in a fall", amount: 45_000 });
  expect(claim.exctnFdbck.id).toBe(75);
  const plan = await p.run("payment financeLoan", { policy: vehicle.id, downPayment: 3000, installments: 4, frequency: "weekly", firstDueDate: watDate() });
  expect(plan.exctnFdbck.id).toBe(75);
  const vehicleRecord = (await findPolicyByReference(t.database.db, p.partnerId, vehicle.id))!;
  return {
    consumer,
    mobile,
    firstName,
    email,
    plate,
    imei,
    vehicle: { reference: vehicle.id as string, policyNo: vehicle.policyNo as string, id: vehicleRecord.id },
    phoneCover: { reference: phoneCover.id as string, policyNo: phoneCover.policyNo as string },
    claimNo: claim.claimNo as string,
    planNo: plan.planNo as string,
  };
}

const partnerName = `Search Partner ${randomLetters(6)}`;
const p = await t.partner({ name: partnerName });
const mine = await book(p);
const partnerBrowser = await signedIn(t, p.portal);
const search = (q: string) => partnerBrowser.get(`/portal/search?q=${encodeURIComponent(q)}`);

const policyLink = (reference: string) => `href="/portal/policies/${reference}"`;

describe("each kind of identifier, as typed, finds its record", () => {
  test("a policy number in any case, with spaces around it", async () => {
    const answer = await search(`  ${mine.vehicle.policyNo.toLowerCase()} `);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(policyLink(mine.vehicle.reference));
    expect(answer.text).toContain(`Policy ${mine.vehicle.policyNo}`);
    expect(answer.text).toContain(`Policy number</span>: <mark>${mine.vehicle.policyNo}</mark>`);
    // The policy found brings its financing plan, matched by the same number.
    expect(answer.text).toContain(`href="/portal/financing/${mine.planNo}"`);
  });

  test("a transaction reference, hyphenated or as 32 hex characters", async () => {
    for (const typed of [mine.phoneCover.reference, mine.phoneCover.reference.replaceAll("-", "").toUpperCase()]) {
      const answer = await search(typed);
      expect(answer.text).toContain(policyLink(mine.phoneCover.reference));
      expect(answer.text).toContain("Transaction reference");
    }
  });

  test("a claim number and a plan number", async () => {
    const claim = await search(mine.claimNo.toLowerCase());
    expect(claim.text).toContain(`href="/portal/claims/${mine.claimNo}"`);
    expect(claim.text).toContain(`Claim number</span>: <mark>${mine.claimNo}</mark>`);
    const plan = await search(mine.planNo);
    expect(plan.text).toContain(`href="/portal/financing/${mine.planNo}"`);
    expect(plan.text).toContain("Financing plans (1)");
  });

  test("a phone number as people write it: 0803 123 4567, 08031234567, +234 803…, 803 123 4567", async () => {
    const m = mine.mobile;
    for (const typed of [
      `0${m.slice(0, 3)} ${m.slice(3, 6)} ${m.slice(6)}`,
      `0${m}`,
      `+234 ${m.slice(0, 3)} ${m.slice(3, 6)} ${m.slice(6)}`,
      `${m.slice(0, 3)} ${m.slice(3)}`,
      `(0${m.slice(0, 3)}) ${m.slice(3)}`,
    ]) {
      const answer = await search(typed);
      expect({ typed, found: answer.text.includes(`href="/portal/consumers/${mine.consumer}"`) }).toEqual({ typed, found: true });
      expect(answer.text).toContain(`Phone</span>: <mark>+234${m}</mark>`);
      // The consumer's policies come with them, saying what matched.
      expect(answer.text).toContain(policyLink(mine.vehicle.reference));
      expect(answer.text).toContain(`Insured&#x27;s phone</span>: <mark>+234${m}</mark>`);
    }
  });

  test("a registration plate with or without spaces, in any case; its plan comes with it", async () => {
    const spaced = `${mine.plate.slice(0, 3)} ${mine.plate.slice(3, 6)} ${mine.plate.slice(6)}`;
    for (const typed of [mine.plate, spaced, spaced.toLowerCase(), `${mine.plate.slice(0, 3)}-${mine.plate.slice(3)}`]) {
      const answer = await search(typed);
      expect({ typed, found: answer.text.includes(policyLink(mine.vehicle.reference)) }).toEqual({ typed, found: true });
      expect(answer.text).toContain(`Registration plate</span>: <mark>${mine.plate}</mark>`);
      expect(answer.text).toContain(`href="/portal/financing/${mine.planNo}"`);
      expect(answer.text).not.toContain(policyLink(mine.phoneCover.reference));
    }
  });

  test("an IMEI, also as a phone shows it in groups; its claim comes with it", async () => {
    const grouped = `${mine.imei.slice(0, 8)} ${mine.imei.slice(8, 14)} ${mine.imei.slice(14)}`;
    for (const typed of [mine.imei, grouped, mine.imei.replace(/^(\d{8})/, "$1-")]) {
      const answer = await search(typed);
      expect({ typed, found: answer.text.includes(policyLink(mine.phoneCover.reference)) }).toEqual({ typed, found: true });
      expect(answer.text).toContain(`IMEI</span>: <mark>${mine.imei}</mark>`);
      expect(answer.text).toContain(`href="/portal/claims/${mine.claimNo}"`);
    }
  });

  test("an e-mail address in any case, and part of a name in any case", async () => {
    const byEmail = await search(mine.email.toUpperCase());
    expect(byEmail.text).toContain(`href="/portal/consumers/${mine.consumer}"`);
    for (const typed of [mine.firstName.slice(1).toUpperCase(), `okonkwo ${mine.firstName}`, mine.firstName.slice(0, 5)]) {
      const answer = await search(typed);
      expect({ typed, found: answer.text.includes(`href="/portal/consumers/${mine.consumer}"`) }).toEqual({ typed, found: true });
      expect(answer.text).toContain(policyLink(mine.phoneCover.reference));
      expect(answer.text).toContain("Insured&#x27;s name");
    }
  });
});

describe("whose records", () => {
  test("a partner never sees another partner's records, whatever is typed", async () => {
    const other = await t.partner();
    const theirs = await book(other);
    const typedTheirs = [
      theirs.vehicle.policyNo,
      theirs.vehicle.reference,
      theirs.claimNo,
      theirs.planNo,
      `0${theirs.mobile}`,
      theirs.plate,
      theirs.imei,
      theirs.email,
      theirs.firstName,
    ];
    for (const typed of typedTheirs) {
      const answer = await search(typed);
      expect({ typed, status: answer.status, nothing: answer.text.includes("Nothing found for") }).toEqual({ typed, status: 200, nothing: true });
      // Nothing of theirs shows but what was typed, echoed.
      for (const secret of [theirs.vehicle.reference, theirs.phoneCover.reference, theirs.claimNo, theirs.planNo, theirs.consumer])
        if (secret !== typed) expect(answer.text).not.toContain(secret);
    }
    // Both modes of the partner's own are found, a test policy marked as one.
    expect((await search(mine.plate)).text).toContain('<span class="badge badge-info">Test</span>');
  });

  test("the operator finds every partner's records, each naming its partner, linked to the operator's pages", async () => {
    const admin = await signedIn(t, operator.portal);
    const answer = await admin.get(`/admin/search?q=${encodeURIComponent(mine.plate.toLowerCase())}`);
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("Search every partner&#x27;s records");
    expect(answer.text).toContain(`href="/admin/policies/${mine.vehicle.id}"`);
    expect(answer.text).toContain(`Partner: <strong>${partnerName}</strong>`);
    expect(answer.text).toContain(`href="/admin/financing/${mine.planNo}"`);
    const byPhone = await admin.get(`/admin/search?q=0${mine.mobile}`);
    expect(byPhone.text).toContain(`href="/admin/consumers/${mine.consumer}"`);
    const byClaim = await admin.get(`/admin/search?q=${mine.claimNo}`);
    expect(byClaim.text).toContain(`href="/admin/claims/${mine.claimNo}"`);
    // Each surface opens only its own search.
    expect((await admin.get("/portal/search?q=abc")).status).toBe(403);
    expect((await partnerBrowser.get("/admin/search?q=abc")).status).toBe(403);
  });
});

describe("the box and its answers in words", () => {
  test("the header of every page has the box, a plain GET form to the viewer's own search", async () => {
    for (const path of ["/portal", "/portal/policies", "/portal/consumers"]) {
      const html = (await partnerBrowser.get(path)).text;
      expect(html).toContain('<form class="site-search" role="search" aria-label="Quick search" method="get" action="/portal/search">');
    }
    const admin = await signedIn(t, operator.portal);
    expect((await admin.get("/admin")).text).toContain('action="/admin/search"');
  });

  test("an empty box says what one can search by; a short, long or unsearchable query says what to type, and finds nothing", async () => {
    const empty = await search("");
    expect(empty.status).toBe(200);
    expect(empty.text).toContain("Type a policy number, a transaction reference, a claim or plan number, the insured&#x27;s name");
    expect(empty.text).not.toContain("Nothing found");
    const short = await search("ab");
    expect(short.status).toBe(400);
    expect(short.text).toContain('<p id="search-error" class="error">Type at least 3 characters to search.</p>');
    expect(short.text).toContain('aria-invalid="true"');
    const long = await search("x".repeat(101));
    expect(long.status).toBe(400);
    expect(long.text).toContain("Type at most 100 characters");
    const symbols = await search("%%%");
    expect(symbols.status).toBe(400);
    expect(symbols.text).toContain("is not something the search can look for");
    const initials = await search("A B");
    expect(initials.text).toContain("Type at least 3 letters of one of the names.");
  });

  test("nothing found says what was searched, how it was read, and what one can search by", async () => {
    const answer = await search("LND 000 ZZ");
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("Nothing found for “LND 000 ZZ”.");
    expect(answer.text).toContain("It was looked for as a registration plate (LND000ZZ).");
    expect(answer.text).toContain("You can search by a policy number");
    // A wildcard typed is looked for literally, not as "anything".
    expect((await search("Zeb%")).text).toContain("Nothing found");
  });
});

describe("reading what was typed", () => {
  test("each kind of identifier is recognised", () => {
    const kinds = (typed: string) => {
      const reading = readQuery(typed);
      return "problem" in reading ? reading.problem : reading.readings.map((r) => r.kind);
    };
    expect(kinds("0803 123 4567")).toEqual(["phone"]);
    expect(kinds("08031234567")).toEqual(["reference", "phone"]);
    expect(kinds("+234 803 123 4567")).toEqual(["phone"]);
    expect(kinds("LND 123 AB")).toEqual(["plate"]);
    expect(kinds("lnd123ab")).toEqual(["reference", "serial", "plate"]);
    expect(kinds("35 209900 176148 1")).toEqual(["imei"]);
    expect(kinds("pol-vhcl-2026-abc")).toEqual(["number", "serial"]);
    expect(kinds("CLM-2026-7K3M9Q2XAB")).toEqual(["number", "serial"]);
    expect(kinds("4f3cbcbd-0b3c-4c47-9d3e-6a1f2b7c8d9e")).toEqual(["reference"]);
    expect(kinds("Ada@Example.ng")).toEqual(["email"]);
    expect(kinds("ngozi eze")).toEqual(["name"]);
  });
});
