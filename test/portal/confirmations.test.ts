/**
 * Issue 36, "confirming what matters": suspending a partner and issuing a live, billed policy stop
 * at a confirmation that names whom and how much, and happen only from its button (the fundings'
 * confirmations are in test/portal/funding.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { listAudit } from "../../src/modules/audit/service";
import { policies } from "../../src/modules/policies/schema";
import { quotes } from "../../src/modules/quotes/schema";
import { walletBalance } from "../../src/modules/wallet/service";
import { productName } from "../../src/products";
import { testApp } from "../support/harness";
import { fullConsumer } from "../support/policies";
import { confirmStepFields, signedIn } from "./browser";

const t = await testApp({ INSURER_DELAY_MS: 0 });
const db = t.database.db;
const operator = await t.partner({ admin: true });
const hx = { "hx-request": "true" };

describe("suspending a partner asks first", () => {
  test("the Partners page keeps Suspend apart from the vehicle checks toggle", async () => {
    const p = await t.partner();
    const admin = await signedIn(t, operator.portal);
    const page = await admin.get("/admin/partners");
    const row = new RegExp(`<tr id="partner-${p.partnerId}">[\\s\\S]*?</tr>`).exec(page.text)![0];
    const forms = [...row.matchAll(/<form[\s\S]*?<\/form>/g)].map((m) => m[0]);
    expect(forms).toHaveLength(2);
    const [suspend, checks] = [forms.find((f) => f.includes('value="suspend"'))!, forms.find((f) => f.includes('value="enrichment-on"'))!];
    expect(suspend).not.toContain("enrichment");
    expect(checks).not.toContain("suspend");
    expect(suspend).toContain(`Suspend…<span class="visually-hidden"> ${p.name}</span>`);
  });

  test("suspend: the question names the partner and what stops; only its button suspends — keys refused, staff signed out", async () => {
    const p = await t.partner();
    const staff = await signedIn(t, p.portal);
    const admin = await signedIn(t, operator.portal);
    await admin.get("/admin/partners");
    const dump = () => p.run("dump entt_*CSTMRS");

    for (const headers of [hx, {}]) {
      // Posted straight (with htmx, or as a plain form without JavaScript): the confirmation, nothing changed.
      const asked = await admin.post(`/admin/partners/${p.partnerId}`, { change: "suspend" }, headers);
      expect(asked.status).toBe(200);
      expect(asked.text).toContain(`Suspend ${p.name}?`);
      expect(asked.text).toContain(`Every API key of ${p.name} is refused from its next request`);
      expect(asked.text).toContain("Their staff are signed out of the portal at once");
      expect(asked.text).toContain(`Suspend ${p.name}</button>`);
      expect(asked.text).toContain(`Keep ${p.name} active</a>`);
      if (!("hx-request" in headers)) expect(asked.text).toContain("<!doctype html>");
      expect((await dump()).exctnFdbck.id).toBe(75);
      expect((await staff.get("/portal")).status).toBe(200);
    }
    // A made-up token is not the confirmation: asked again.
    const forged = await admin.post(`/admin/partners/${p.partnerId}`, { change: "suspend", confirmed: "x".repeat(43) }, hx);
    expect(forged.text).toContain(`Suspend ${p.name}</button>`);
    expect((await dump()).exctnFdbck.id).toBe(75);
    expect(await listAudit(db, { partnerId: p.partnerId, action: "partner.suspend" }, { limit: 5 })).toMatchObject({ items: [] });

    // Another partner's confirmation does not suspend this one.
    const other = await t.partner();
    const otherStep = confirmStepFields((await admin.post(`/admin/partners/${other.partnerId}`, { change: "suspend" }, hx)).text)!;
    expect((await admin.post(`/admin/partners/${p.partnerId}`, otherStep.fields, hx)).text).toContain(`Suspend ${p.name}?`);
    expect((await dump()).exctnFdbck.id).toBe(75);
    expect((await other.run("dump entt_*CSTMRS")).exctnFdbck.id).toBe(75);

    const { step, answer } = await admin.postConfirmed(`/admin/partners/${p.partnerId}`, { change: "suspend" }, hx);
    expect(step).not.toBeNull();
    expect(answer.status).toBe(200);
    expect(answer.text).toContain(`${p.name} is suspended: its keys are refused and its staff are signed out.`);
    expect((await dump()).exctnFdbck).toMatchObject({ id: 55, id_v4: 403 });
    expect((await staff.get("/portal")).status).toBe(303);
    expect(await listAudit(db, { partnerId: p.partnerId, action: "partner.suspend" }, { limit: 5 })).toMatchObject({ items: [{ subject: p.name }] });

    // Reinstating asks too, then lets them back in.
    const back = await admin.post(`/admin/partners/${p.partnerId}`, { change: "reinstate" }, hx);
    expect(back.text).toContain(`Reinstate ${p.name}?`);
    expect(back.text).toContain(`Keep ${p.name} suspended</a>`);
    expect((await dump()).exctnFdbck.id).toBe(55);
    const reinstated = await admin.post(`/admin/partners/${p.partnerId}`, confirmStepFields(back.text)!.fields, hx);
    expect(reinstated.text).toContain(`${p.name} is reinstated`);
    expect((await dump()).exctnFdbck.id).toBe(75);
  });

  test("the vehicle checks toggle stays one click", async () => {
    const p = await t.partner();
    const admin = await signedIn(t, operator.portal);
    await admin.get("/admin/partners");
    const on = await admin.post(`/admin/partners/${p.partnerId}`, { change: "enrichment-on" }, hx);
    expect(on.text).toContain("Turn vehicle checks off");
    expect(on.text).not.toContain("confirm-step");
  });
});

describe("issuing a live policy from the portal asks first, with the premium", () => {
  const vehicle = { brand: "Toyota", model: "Corolla", year: "2018", chsssId: "2T1BURHE0JC074316", engineId: "2ZR1234567", rgstrtId: "ABC123DE" };
  const vehicleForm = Object.fromEntries(Object.entries(vehicle).map(([k, v]) => [`addtnlFact.${k}`, v]));

  async function livePartner() {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 100_000, reference: "fund-1" }, "live");
    await p.run("set env_live", undefined, "legacy");
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const b = await signedIn(t, p.portal);
    await b.get("/portal/quote?product=vhcl-tprt-1111");
    return { p, b, form: { product: "vhcl-tprt-1111", insrncDrtn: "1y", consumer, id: crypto.randomUUID(), ...vehicleForm } };
  }
  const stored = async (partnerId: string) => ({
    policies: (await db.select({ n: count() }).from(policies).where(eq(policies.partnerId, partnerId)))[0]!.n,
    quotes: (await db.select({ n: count() }).from(quotes).where(eq(quotes.partnerId, partnerId)))[0]!.n,
  });

  test("the confirmation names the product, the insured and the premium; nothing is stored or paid before its button", async () => {
    const { p, b, form } = await livePartner();
    const asked = await b.post("/portal/quote/issue", form);
    expect(asked.status).toBe(200);
    const premium = /Issue and pay (₦[\d,]+\.\d\d)<\/button>/.exec(asked.text)?.[1];
    expect(premium).toBeDefined();
    for (const shown of [
      "Issue a live policy for Adaeze Okafor?",
      `<dt>Product</dt><dd>${productName("vhcl-tprt-1111")}</dd>`,
      "<dt>Insured</dt><dd>Adaeze Okafor</dd>",
      `<dt>Premium</dt><dd>${premium}</dd>`,
      `${premium} is taken from your wallet now: this is a live policy, billed.`,
      "<dt>Wallet balance</dt><dd>₦100,000.00 now",
      form.id,
    ])
      expect(asked.text).toContain(shown);
    expect(await stored(p.partnerId)).toEqual({ policies: 0, quotes: 0 });
    expect(await walletBalance(db, p.partnerId)).toBe(10_000_000);

    // A token for another premium (or none) is asked again.
    const forged = await b.post("/portal/quote/issue", { ...form, confirmed: "forged" });
    expect(forged.status).toBe(200);
    expect(forged.text).toContain(`Issue and pay ${premium}</button>`);
    expect(await stored(p.partnerId)).toEqual({ policies: 0, quotes: 0 });

    // "Change the details" goes back to the form with what was typed.
    const step = confirmStepFields(asked.text)!;
    const changing = await b.post("/portal/quote/form", step.fields);
    expect(changing.text).toContain(`value="${form.id}"`);
    expect(changing.text).toContain('value="2T1BURHE0JC074316"');

    const issued = await b.post(step.action, step.fields);
    expect(issued.status).toBe(303);
    expect(issued.location).toBe(`/portal/policies/${form.id}`);
    const premiumKobo = Math.round(Number(premium!.replace(/[₦,]/g, "")) * 100);
    expect(await walletBalance(db, p.partnerId)).toBe(10_000_000 - premiumKobo);
    expect(await stored(p.partnerId)).toEqual({ policies: 1, quotes: 1 });
    // The confirmation sent again (a double click) is the same policy, paid once.
    expect((await b.post(step.action, step.fields)).location).toBe(`/portal/policies/${form.id}`);
    expect(await walletBalance(db, p.partnerId)).toBe(10_000_000 - premiumKobo);
  });

  test("a refusal is shown on the form, before any confirmation", async () => {
    const { p, b, form } = await livePartner();
    const refused = await b.post("/portal/quote/issue", { ...form, "addtnlFact.year": "" });
    expect(refused.status).toBe(400);
    expect(refused.text).not.toContain("confirm-step");
    expect(await stored(p.partnerId)).toEqual({ policies: 0, quotes: 0 });
  });

  test("test mode issues at once: a specimen moves no money", async () => {
    const p = await t.partner();
    const { id: consumer } = await p.run("prfl entity", fullConsumer());
    const b = await signedIn(t, p.portal);
    await b.get("/portal/quote?product=vhcl-tprt-1111");
    const issued = await b.post("/portal/quote/issue", { product: "vhcl-tprt-1111", insrncDrtn: "1y", consumer, id: crypto.randomUUID(), ...vehicleForm });
    expect(issued.status).toBe(303);
    expect(
      (
        await db
          .select({ n: count() })
          .from(policies)
          .where(and(eq(policies.partnerId, p.partnerId), eq(policies.mode, "test")))
      )[0]!.n,
    ).toBe(1);
  });
});
