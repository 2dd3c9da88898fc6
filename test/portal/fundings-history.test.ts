import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { walletFundings } from "../../src/modules/funding/schema";
import { setAccountMode } from "../../src/modules/partners/service";
import { type TestPartner, testApp } from "../support/harness";
import { signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;
const [alice, bola] = [await t.partner({ admin: true }), await t.partner({ admin: true })];
const reference = (suffix = "") => `HIST-${crypto.randomUUID().slice(0, 8)}${suffix}`;
const bankReference = () => `NIP${crypto.randomUUID().slice(0, 12)}`;

async function livePartner() {
  const p = await t.partner();
  await setAccountMode(db, p.partnerId, "live");
  return p;
}
async function fundingOf(p: TestPartner, ref: string) {
  const [row] = await db
    .select()
    .from(walletFundings)
    .where(and(eq(walletFundings.partnerId, p.partnerId), eq(walletFundings.reference, ref)));
  return row!;
}
/** The operator's card of a funding on a page, from its heading to the end of its article. */
/** The partner's live top-ups on the wallet page (the ledger below names credited top-ups too). */
const fundingRows = (html: string) => {
  const start = html.indexOf('id="funding-rows"');
  return start < 0 ? "" : html.slice(start, html.indexOf("</tbody>", start));
};
const cardOf = (html: string, id: string) => {
  const start = html.indexOf(`id="funding-${id}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</article>", start));
};

/** A live top-up of `amount` naira above the threshold, confirmed by Alice and approved by Bola. */
async function approvedFunding() {
  const p = await livePartner();
  const ref = reference("-unpaid");
  const amount = t.config.FUNDING_FOUR_EYES_KOBO / 100;
  await p.run("wallet topup", { amount, reference: ref }, "live");
  const funding = await fundingOf(p, ref);
  const first = await signedIn(t, alice.portal);
  await first.get("/admin/fundings");
  const bank = bankReference();
  const { answer: asked } = await first.postConfirmed(`/admin/fundings/${funding.id}/confirm`, { bankReference: bank, amount: String(amount) });
  const confirmationId = /\/admin\/fundings\/confirmations\/([0-9a-f-]{36})\/reject/.exec(asked.text)![1]!;
  const second = await signedIn(t, bola.portal);
  await second.get("/admin/fundings");
  expect((await second.postConfirmed(`/admin/fundings/confirmations/${confirmationId}/approve`, {})).answer.status).toBe(200);
  return { p, ref, funding, bank };
}

describe("the operator's fundings: history as well as work", () => {
  test("a credited funding leaves the open list and stays in the history, with who confirmed it, who approved it and when", async () => {
    const { p, ref, funding, bank } = await approvedFunding();
    const admin = await signedIn(t, alice.portal);
    expect((await admin.get("/admin/fundings")).text).not.toContain(`id="funding-${funding.id}"`);
    for (const show of ["all", "credited"]) {
      const page = await admin.get(`/admin/fundings?show=${show}`);
      expect(page.status).toBe(200);
      const card = cardOf(page.text, funding.id);
      expect(card).toContain(ref);
      expect(card).toContain("Credited");
      expect(card).toContain(`confirmed by ${alice.portal.email}, bank reference ${bank}`);
      expect(card).toContain(`Approved by ${bola.portal.email}.`);
      expect(card).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}: /);
      // A settled funding has nothing left to act on.
      expect(card).not.toContain("Confirm a bank transfer");
    }
    expect(cardOf((await admin.get("/admin/fundings?show=rejected")).text, funding.id)).toBe("");
    // By partner and by reference.
    const byReference = await admin.get(`/admin/fundings?show=all&reference=${ref}`);
    expect(byReference.text.match(/<article class="card"/g)).toHaveLength(1);
    const byPartner = await admin.get(`/admin/fundings?show=all&partner=${p.partnerId}`);
    expect(cardOf(byPartner.text, funding.id)).toContain(ref);
    expect(byPartner.text).toContain(`value="${p.partnerId}" selected`);
    const none = await admin.get(`/admin/fundings?show=all&reference=nothing-like-it`);
    expect(none.text).toContain("No fundings match these filters.");
  });

  test("a rejected confirmation and a rejected held funding: who rejected, and nothing credited", async () => {
    const p = await livePartner();
    const ref = reference("-partial");
    // Half of it arrives (the sandbox's "-partial"): the threshold itself, so its credit waits for a second administrator.
    await p.run("wallet topup", { amount: (2 * t.config.FUNDING_FOUR_EYES_KOBO) / 100, reference: ref }, "live");
    const funding = await fundingOf(p, ref);
    const first = await signedIn(t, alice.portal);
    await first.get("/admin/fundings");
    // Alice asks to credit the held amount (above the threshold, so it waits); Bola rejects that; Alice then rejects the funding.
    const { answer: asked } = await first.postConfirmed(`/admin/fundings/${funding.id}/credit-held`, {});
    const confirmationId = /\/admin\/fundings\/confirmations\/([0-9a-f-]{36})\/reject/.exec(asked.text)![1]!;
    const second = await signedIn(t, bola.portal);
    await second.get("/admin/fundings");
    expect((await second.post(`/admin/fundings/confirmations/${confirmationId}/reject`, {})).status).toBe(200);
    expect((await first.post(`/admin/fundings/${funding.id}/reject-held`, {})).status).toBe(200);
    const page = await first.get("/admin/fundings?show=rejected");
    const card = cardOf(page.text, funding.id);
    expect(card).toContain("Failed");
    expect(card).toContain("Credit of the ₦");
    expect(card).toContain(`Rejected by ${bola.portal.email}: nothing was credited for it.`);
    expect(card).toContain(`Rejected by ${alice.portal.email}: nothing was credited.`);
  });

  test("an expired funding stays visible under Expired", async () => {
    const p = await livePartner();
    const ref = reference("-unpaid");
    await p.run("wallet topup", { amount: 900, reference: ref }, "live");
    const funding = await fundingOf(p, ref);
    await db
      .update(walletFundings)
      .set({ status: "expired", statusNote: "No payment arrived in time", settledAt: new Date() })
      .where(eq(walletFundings.id, funding.id));
    const admin = await signedIn(t, alice.portal);
    const card = cardOf((await admin.get("/admin/fundings?show=expired")).text, funding.id);
    expect(card).toContain("Expired: no payment arrived in time.");
    // An expired funding may still be confirmed by hand (money can arrive late): the link keeps the filter.
    expect(card).toContain(`/admin/fundings?show=expired&confirm=${funding.id}`);
  });

  test("a history pages by 25, newest first", async () => {
    const p = await livePartner();
    for (let i = 1; i <= 27; i++)
      await p.run("wallet topup", { amount: 10 + i, reference: `PAGE-${p.partnerId.slice(0, 4)}-${String(i).padStart(2, "0")}` }, "live");
    const admin = await signedIn(t, alice.portal);
    const page = await admin.get(`/admin/fundings?show=credited&partner=${p.partnerId}`);
    const shown = [...page.text.matchAll(/PAGE-\w{4}-(\d\d)<\/h2>/g)].map((m) => m[1]);
    expect(shown).toHaveLength(25);
    expect(shown[0]).toBe("27");
    const older = /href="(\/admin\/fundings\?[^"]*cursor=[^"]+)"/.exec(page.text)![1]!.replaceAll("&amp;", "&");
    const rest = await admin.get(older);
    expect([...rest.text.matchAll(/PAGE-\w{4}-(\d\d)<\/h2>/g)].map((m) => m[1])).toEqual(["02", "01"]);
    expect(rest.text).not.toContain("Older fundings");

    // The partner's own wallet pages its top-ups the same way, keeping the kind chosen.
    const b = await signedIn(t, p.portal);
    const ownRows = (html: string) => [...fundingRows(html).matchAll(/PAGE-\w{4}-(\d\d)</g)].map((m) => m[1]);
    const own = await b.get("/portal/wallet?show=credited");
    expect(ownRows(own.text)).toHaveLength(25);
    expect(ownRows(own.text)[0]).toBe("27");
    const ownOlder = /href="(\/portal\/wallet\?show=credited&(?:amp;)?fundings=[^"#]+)#fundings"/.exec(own.text)![1]!.replaceAll("&amp;", "&");
    const ownRest = await b.get(ownOlder);
    expect(ownRows(ownRest.text)).toEqual(["02", "01"]);
    expect(ownRest.text).not.toContain("Older top-ups");
    // A cursor edited by hand starts again from the newest.
    expect(ownRows((await b.get("/portal/wallet?fundings=nonsense")).text)[0]).toBe("27");
  });
});

describe("a partner's own fundings", () => {
  test("every top-up stays on the wallet page with its history; the operator's staff are named by their part, not their e-mail", async () => {
    const { p, ref } = await approvedFunding();
    const failed = reference("-fail");
    await p.run("wallet topup", { amount: 100, reference: failed }, "live");
    const b = await signedIn(t, p.portal);
    const page = await b.get("/portal/wallet");
    expect(page.text).toContain(ref);
    expect(page.text).toContain(failed);
    expect(page.text).toContain("confirmed by an administrator");
    expect(page.text).toContain("Approved by a second administrator.");
    expect(page.text).not.toContain(alice.portal.email);
    expect(page.text).not.toContain(bola.portal.email);
    const credited = await b.get("/portal/wallet?show=credited");
    expect(fundingRows(credited.text)).toContain(ref);
    expect(fundingRows(credited.text)).not.toContain(failed);
    expect(credited.text).toContain('<option value="credited" selected');
    const rejected = await b.get("/portal/wallet?show=rejected");
    expect(fundingRows(rejected.text)).toContain(failed);
    expect(fundingRows(rejected.text)).not.toContain(ref);
    expect((await b.get("/portal/wallet?show=expired")).text).toContain("No live top-ups of this kind.");
    // Another partner's fundings never show.
    const other = await livePartner();
    expect((await (await signedIn(t, other.portal)).get("/portal/wallet?show=all")).text).not.toContain(ref);
  });
});
