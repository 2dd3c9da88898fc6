import { describe, expect, test } from "bun:test";
import { escapeHtml } from "@kitajs/html";
import { listPlans } from "../../src/modules/financing/plans";
import { inWords } from "../../src/portal/words";
import { day } from "../../views/format";
import { type TestPartner, testApp } from "../support/harness";
import { fullConsumer, insureSeed, productCases, watDate } from "../support/policies";
import { type Browser, confirmStepFields, signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });

/** An approved test-mode vehicle third-party policy of `p` for a year: premium ₦15,000. */
async function insured(p: TestPartner, consumer?: string) {
  consumer ??= (await p.run("prfl entity", fullConsumer())).id as string;
  const answer = await p.run(`entt_${consumer}: insure`, insureSeed(productCases["vhcl-tprt-1111"]!));
  expect(answer.status).toBe("a");
  return { reference: answer.id as string, consumer };
}

const financeForm = (policy: string, overrides: Record<string, string> = {}) => ({
  policy,
  downPayment: "3,000",
  installments: "4",
  frequency: "weekly",
  firstDueDate: watDate(0),
  graceDays: "",
  ...overrides,
});

/** The plan number a creation redirected to. */
const planNoOf = (location: string | null) => /\/portal\/financing\/(FIN-\d{4}-[0-9A-Z]{10})\?created=1$/.exec(location ?? "")?.[1];

async function financed(b: Browser, policy: string, overrides: Record<string, string> = {}) {
  await b.get(`/portal/financing/new?policy=${policy}`);
  const answer = await b.post("/portal/financing", financeForm(policy, overrides));
  expect(answer.status).toBe(303);
  const planNo = planNoOf(answer.location);
  expect(planNo).toBeDefined();
  return { planNo: planNo!, location: answer.location! };
}

const plansOf = async (partnerId: string) => (await listPlans(db, { partnerId }, {}, { limit: 100 })).items;

describe("partner financing pages", () => {
  test("finance a premium from the policy page: the plan shows its schedule, the JSON surface sees the same plan", async () => {
    const p = await t.partner();
    const { reference } = await insured(p);
    const b = await signedIn(t, p.portal);
    const policyPage = await b.get(`/portal/policies/${reference}`);
    expect(policyPage.text).toContain(`href="/portal/financing/new?policy=${reference}"`);
    const form = await b.get(`/portal/financing/new?policy=${reference}`);
    expect(form.text).toContain(`value="${reference}"`);
    expect(form.text).toContain("premium ₦15,000.00");
    for (const input of ["policy", "downPayment", "installments", "frequency", "firstDueDate", "graceDays"])
      expect(form.text).toContain(`<label for="f-${input}"`);

    const { planNo, location } = await financed(b, reference);
    const detail = await b.get(location);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('role="status"');
    expect(detail.text).toContain(`Plan ${planNo} is set up: ₦12,000.00 in 4 installments`);
    expect(detail.text.match(/<th scope="row">\d of 4<\/th>/g)).toHaveLength(4);
    expect(detail.text.match(/<td class="num">₦3,000.00<\/td>/g)).toHaveLength(4);
    expect(detail.text).toContain("Unpaid");
    expect(detail.text).toContain("Record the payment");

    const status = await p.run("payment status", { planNo });
    expect(status).toMatchObject({
      planNo,
      policy: reference,
      status: "active",
      premium: 15_000,
      downPayment: 3_000,
      financed: 12_000,
      installments: 4,
      frequency: "weekly",
      graceDays: 7,
    });
    expect(status.schedule.map((i: any) => [i.dueDate, i.amount])).toEqual([0, 7, 14, 21].map((d) => [watDate(d), 3000]));

    // One plan per policy: the link is gone, and the list has the plan.
    expect((await b.get(`/portal/policies/${reference}`)).text).not.toContain("Finance the premium");
    expect((await b.get("/portal/financing")).text).toContain(planNo);
  });

  test("refusals are shown next to their field in the JSON surface's words, keep what was typed and store nothing", async () => {
    const p = await t.partner();
    const { reference } = await insured(p);
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/financing/new?policy=${reference}`);

    const tooMuch = await b.post("/portal/financing", financeForm(reference, { downPayment: "15,000" }));
    const json = await p.run("payment financeLoan", { policy: reference, downPayment: 15_000, installments: 4, frequency: "weekly", firstDueDate: watDate(0) });
    expect(json.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toContain('id="f-downPayment-error"');
    expect(tooMuch.text).toContain(escapeHtml(inWords(json.exctnFdbck.elbrtn)));
    expect(tooMuch.text).toContain('value="15,000"');
    expect(tooMuch.text).toContain('<option value="weekly" selected>');

    const many = await b.post("/portal/financing", financeForm(reference, { installments: "13" }));
    expect(many.text).toContain('id="f-installments-error"');
    expect(many.text).toContain(inWords("seed.installments must be at most 12; received 13"));

    const past = await b.post("/portal/financing", financeForm(reference, { firstDueDate: watDate(-1) }));
    expect(past.text).toContain('id="f-firstDueDate-error"');
    expect(past.text).toContain("is in the past");

    const noFrequency = await b.post("/portal/financing", financeForm(reference, { frequency: "" }));
    expect(noFrequency.text).toContain('id="f-frequency-error"');
    expect(noFrequency.text).toContain(inWords("seed.frequency is required"));

    const grace = await b.post("/portal/financing", financeForm(reference, { graceDays: "31" }));
    expect(grace.text).toContain('id="f-graceDays-error"');

    const beyondCover = await b.post("/portal/financing", financeForm(reference, { installments: "12", frequency: "monthly", firstDueDate: watDate(60) }));
    expect(beyondCover.text).toContain('id="f-installments-error"');
    expect(beyondCover.text).toContain("after the cover of policy");

    const unknown = await b.post("/portal/financing", financeForm(crypto.randomUUID()));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('id="f-policy-error"');

    expect(await plansOf(p.partnerId)).toHaveLength(0);
  });

  test("record installments: oldest first with part payments, a repeated reference shows the first result, refusals beside their field, completion", async () => {
    const p = await t.partner();
    const { reference } = await insured(p);
    const b = await signedIn(t, p.portal);
    const { planNo } = await financed(b, reference);
    const path = `/portal/financing/${planNo}/installments`;

    const first = await b.post(path, { amount: "4,000", reference: "rcpt-1", paidAt: "" }, { "hx-request": "true" });
    expect(first.status).toBe(200);
    expect(first.text).not.toContain("<html");
    expect(first.text).toContain(`Recorded ₦4,000.00 with reference rcpt-1, paid ${day(watDate(0))}: ₦8,000.00 outstanding`);
    expect(first.text).toContain("Part paid: ₦2,000.00 to pay");
    expect(first.text).toMatch(/Paid \d+ \w{3} \d{4}/);

    const repeat = await b.post(path, { amount: "4000", reference: "rcpt-1" }, { "hx-request": "true" });
    expect(repeat.status).toBe(200);
    expect(repeat.text).toContain("Reference rcpt-1 was already recorded on");
    expect(repeat.text).toContain("nothing new was recorded. That first result was: ₦8,000.00 outstanding");
    expect((await p.run("payment status", { planNo })).payments).toHaveLength(1);

    const otherAmount = await b.post(path, { amount: "500", reference: "rcpt-1" });
    expect(otherAmount.status).toBe(409);
    expect(otherAmount.text).toContain('id="f-reference-error"');
    expect(otherAmount.text).toContain(inWords("seed.reference rcpt-1 was already used for a payment of 4000 naira"));

    const over = await b.post(path, { amount: "8,000.01", reference: "rcpt-2" });
    expect(over.status).toBe(409);
    expect(over.text).toContain('id="f-amount-error"');
    expect(over.text).toContain("is more than the ₦8,000.00 outstanding");
    expect(over.text).toContain('value="rcpt-2"');

    const future = await b.post(path, { amount: "100", reference: "rcpt-3", paidAt: watDate(3) });
    expect(future.status).toBe(400);
    expect(future.text).toContain('id="f-paidAt-error"');
    expect((await p.run("payment status", { planNo })).outstanding).toBe(8000);

    const rest = await b.post(path, { amount: "8000", reference: "rcpt-4" }, { "hx-request": "true" });
    expect(rest.text).toContain("nothing is outstanding: the plan is completed");
    expect(rest.text).toContain("Completed");
    expect(rest.text).not.toContain("Record the payment");
    expect((await p.run("payment status", { planNo })).status).toBe("completed");
  });

  test("the list filters by status and pages with Show more; another partner's plan is not found", async () => {
    const p = await t.partner();
    const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
    const planNos: string[] = [];
    for (let i = 0; i < 26; i++) {
      const { reference } = await insured(p, consumer);
      const plan = await p.run("payment financeLoan", { policy: reference, downPayment: 0, installments: 2, frequency: "weekly", firstDueDate: watDate(1) });
      expect(plan.exctnFdbck.id).toBe(75);
      planNos.push(plan.planNo);
    }
    const last = planNos.at(-1)!;
    await p.run("payment recordInstallment", { planNo: last, amount: 15_000, reference: "all-at-once" });
    const b = await signedIn(t, p.portal);

    const list = await b.get("/portal/financing");
    expect(list.text).toContain('<th scope="col">Plan</th>');
    expect(list.text.match(/href="\/portal\/financing\/FIN-/g)).toHaveLength(25);
    const more = /hx-get="([^"]+)"/.exec(list.text)?.[1]?.replaceAll("&amp;", "&");
    const rest = await b.get(more!, { "hx-request": "true" });
    expect(rest.text.match(/href="\/portal\/financing\/FIN-/g)).toHaveLength(1);
    expect(rest.text).toContain(planNos[0]!);

    const completed = await b.get("/portal/financing?status=completed");
    expect(completed.text.match(/href="\/portal\/financing\/FIN-/g)).toHaveLength(1);
    expect(completed.text).toContain(last);
    expect((await b.get("/portal/financing?status=lapsed")).text).toContain("No plans match these filters.");

    const other = await signedIn(t, (await t.partner()).portal);
    expect((await other.get(`/portal/financing/${last}`)).status).toBe(404);
    expect((await other.post(`/portal/financing/${planNos[0]}/installments`, { amount: "100", reference: "sneaky" })).status).toBe(404);
    expect((await other.get("/portal/financing")).text).not.toContain(last);
    expect((await other.post("/portal/financing", financeForm((await insured(p, consumer)).reference))).status).toBe(404);
  });
});

describe("the operator's financing page", () => {
  test("Run lapse now lapses a plan past its grace: the run lists it, the partner's policy page shows Lapsed, the audit log records the run", async () => {
    const p = await t.partner();
    const { reference } = await insured(p);
    const b = await signedIn(t, p.portal);
    const { planNo } = await financed(b, reference, { graceDays: "0" });
    const admin = await signedIn(t, operator.portal);

    const list = await admin.get("/admin/financing");
    expect(list.status).toBe(200);
    expect(list.text).toContain(planNo);
    expect(list.text).toContain(escapeHtml(p.name));
    expect(list.text).toContain('<label for="f-asOf"');

    const badDate = await admin.post("/admin/financing/lapse", { asOf: "2026-02-30" }, { "hx-request": "true" });
    expect(badDate.status).toBe(400);
    expect(badDate.text).toContain('id="f-asOf-error"');
    expect(badDate.text).toContain(inWords("seed.asOf is not a real calendar date"));

    const today = await admin.post("/admin/financing/lapse", { asOf: "" }, { "hx-request": "true" });
    expect(today.status).toBe(200);
    expect(today.text).not.toContain(planNo); // due today with no grace: not late yet

    // A run that lapses something asks first, with how many plans; nothing lapses before its button.
    const step = await admin.post("/admin/financing/lapse", { asOf: watDate(1) }, { "hx-request": "true" });
    expect(step.text).toContain("Lapse 1 plan</button>");
    expect((await b.get(`/portal/financing/${planNo}`)).text).not.toContain("Lapsed");
    const confirmed = confirmStepFields(step.text)!;
    const run = await admin.post(confirmed.action, confirmed.fields, { "hx-request": "true" });
    expect(run.status).toBe(200);
    expect(run.text).not.toContain("<html");
    expect(run.text).toContain('role="status"');
    expect(run.text).toContain(planNo);
    expect(run.text).toContain("Lapsed: installment 1 of 4 (₦3,000.00");

    const policyPage = await b.get(`/portal/policies/${reference}`);
    expect(policyPage.text).toContain("Lapsed");
    expect(policyPage.text).toContain("unpaid after its due date (no grace days)");
    expect(policyPage.text).not.toContain("Make a claim");
    const plan = await b.get(`/portal/financing/${planNo}`);
    expect(plan.text).toContain("Lapsed");
    expect(plan.text).not.toContain("Record the payment");
    expect((await admin.get(`/admin/financing/${planNo}`)).text).toContain("Lapsed: installment 1 of 4");

    // A second run lapses nothing more for it.
    expect((await admin.post("/admin/financing/lapse", { asOf: watDate(1) }, { "hx-request": "true" })).text).not.toContain(planNo);
    const audit = await admin.get("/admin/audit");
    expect(audit.text).toContain("Unpaid plans lapsed");
    expect(audit.text).toContain(planNo);
  });

  test("who may open what: partners get 403 on the operator's page, the operator 403 on partner pages, and no form works without its CSRF token", async () => {
    const p = await t.partner();
    const { reference } = await insured(p);
    const b = await signedIn(t, p.portal);
    const { planNo } = await financed(b, reference);
    const admin = await signedIn(t, operator.portal);

    expect((await b.get("/admin/financing")).status).toBe(403);
    expect((await b.get(`/admin/financing/${planNo}`)).status).toBe(403);
    expect((await b.post("/admin/financing/lapse", { asOf: watDate(30) })).status).toBe(403);
    for (const path of ["/portal/financing", "/portal/financing/new", `/portal/financing/${planNo}`]) expect((await admin.get(path)).status).toBe(403);

    const other = await insured(p);
    expect((await b.post("/portal/financing", { ...financeForm(other.reference), _csrf: "" })).status).toBe(403);
    expect((await b.post(`/portal/financing/${planNo}/installments`, { amount: "100", reference: "no-token", _csrf: "" })).status).toBe(403);
    expect((await admin.post("/admin/financing/lapse", { asOf: watDate(30), _csrf: "" })).status).toBe(403);
    expect(await plansOf(p.partnerId)).toHaveLength(1);
    expect(await p.run("payment status", { planNo })).toMatchObject({ status: "active", payments: [] });
  });
});
