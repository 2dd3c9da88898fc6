/**
 * Issue 36, "seeing who and what": the operator's page of one partner, the administrators page
 * (invite, deactivate, reactivate, never oneself nor the last), the operator's own accounts kept
 * out of the partner lists and pickers, and the operator's pages in the operator's voice.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Viewer } from "../../src/core/principal";
import { listUsers, setStaffActive } from "../../src/modules/accounts/service";
import { listAudit } from "../../src/modules/audit/service";
import { currentWatMonth } from "../../src/modules/enrichment";
import { policies } from "../../src/modules/policies/schema";
import { allProductCodes } from "../../src/products";
import { type TestPartner, testApp } from "../support/harness";
import { approvedPolicy } from "../support/policies";
import { Browser, signedIn } from "./browser";

const t = await testApp();
const db = t.database.db;

const auditOf = async (partnerId: string, action: string) => (await listAudit(db, { partnerId, action }, { limit: 20 })).items;

/** The first match of `pattern` in a page, or a failure naming what was missing. */
function grab(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  if (!match) throw new Error(`not on the page: ${pattern}`);
  return match[1]!;
}

const oneTimePasswordOf = (text: string) => grab(text, /id="one-time-password"[^>]*>\s*([^<\s]+)\s*</);

/** Invite someone on a team page (`/portal/team` or `/admin/administrators`); they sign in and choose their own password. */
async function invite(inviter: Browser, path: string, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${crypto.randomUUID().slice(0, 8)}@example.ng`;
  await inviter.get(path);
  const invited = await inviter.post(path, { name, email });
  expect(invited.status).toBe(200);
  const oneTime = oneTimePasswordOf(invited.text);
  const browser = new Browser(t);
  expect((await browser.signIn(email, oneTime)).location).toBe("/portal/password");
  await browser.get("/portal/password");
  const password = "a long chosen password";
  const chosen = await browser.post("/portal/password", { currentPassword: oneTime, newPassword: password, confirmPassword: password });
  expect(chosen.status).toBe(303);
  return { browser, email, password, home: chosen.location };
}

/** A fresh operator account (its own administrators, as each test's) with its first administrator signed in. */
async function operatorAccount() {
  const operator = await t.partner({ admin: true, name: `Operator ${crypto.randomUUID().slice(0, 6)}` });
  return { operator, admin: await signedIn(t, operator.portal) };
}

/** A page's text with its escaped apostrophes read back. */
const words = (html: string) => html.replace(/&#x27;|&#39;/g, "'");

const userIdOf = async (partner: TestPartner, email: string) => (await listUsers(db, partner.partnerId)).find((u) => u.email === email.toLowerCase())!.id;

describe("the operator's page of a partner", () => {
  test("it shows the account, both balances, the users, the newest policies, live top-ups and statements; the partners list links to it", async () => {
    const { admin } = await operatorAccount();
    const p = await t.partner({ name: `Lagos Lender ${crypto.randomUUID().slice(0, 6)}` });
    const topUp = `fund-${crypto.randomUUID().slice(0, 8)}`;
    await p.run("wallet topup", { amount: 250_000, reference: topUp }, "live");
    await p.run("wallet topup", { amount: 7_500, reference: `test-${crypto.randomUUID().slice(0, 8)}` });
    const reference = await approvedPolicy(p, "vhcl-tprt-1111");
    const owner = await signedIn(t, p.portal);
    const { email: staffEmail } = await invite(owner, "/portal/team", "Ngozi Clerk");

    const list = await admin.get("/admin/partners");
    expect(list.text).toContain(`<a href="/admin/partners/${p.partnerId}">${p.name}</a>`);

    const page = await admin.get(`/admin/partners/${p.partnerId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<h1 id="partner-title">${p.name}</h1>`);
    expect(page.text).toContain('<span class="badge badge-ok">Active</span>');
    expect(page.text).toContain("TEST MODE");
    expect(page.text).toContain('₦250,000.00</span><span class="tile-label">Live wallet balance');
    expect(page.text).toContain('₦7,500.00</span><span class="tile-label">Test balance');
    // Users, with role and status.
    expect(page.text).toContain(p.portal.email);
    expect(page.text).toContain(staffEmail);
    expect(page.text).toContain('<td data-label="Role">Owner</td>');
    expect(page.text).toContain('<td data-label="Role">Staff</td>');
    // The newest policies, each to its page; the live top-up; the statements, each to the month's statement of this partner.
    const [issued] = await t.database.db.select({ policyNo: policies.policyNo }).from(policies).where(eq(policies.reference, reference));
    expect(page.text).toMatch(new RegExp(`<a href="/admin/policies/[0-9a-f-]{36}">${issued!.policyNo}</a>`));
    expect(page.text).toContain(`<td>${topUp}</td>`);
    expect(page.text).toContain("Credited");
    const month = currentWatMonth(new Date());
    expect(page.text).toContain(`href="/admin/statements?partner=${p.partnerId}&month=${month}"`);
    expect(page.text).toContain(`href="/admin/statements?partner=${p.partnerId}"`);
    const statement = await admin.get(`/admin/statements?partner=${p.partnerId}&month=${month}`);
    expect(statement.status).toBe(200);
    expect(statement.text).toContain(`${p.name}: `);

    // A suspended partner says so.
    await admin.postConfirmed(`/admin/partners/${p.partnerId}`, { change: "suspend" }, { "hx-request": "true" });
    expect((await admin.get(`/admin/partners/${p.partnerId}`)).text).toContain('<span class="badge badge-bad">Suspended</span>');
  });

  test("it links to every policy, claim and live top-up of the partner: the operator's lists, filtered to that partner (and their CSVs)", async () => {
    const { admin } = await operatorAccount();
    const [p, other] = [await t.partner({ name: `Kano Shop ${crypto.randomUUID().slice(0, 6)}` }), await t.partner()];
    const claimOf = async (partner: TestPartner) =>
      (
        await partner.run("claim submit", {
          policy: await approvedPolicy(partner, "vhcl-tprt-1111"),
          incidentDate: new Date(Date.now() + 3_600_000).toISOString().slice(0, 10),
          description: "Side mirror broken in traffic",
          amount: 20_000,
        })
      ).claimNo as string;
    const [mine, theirs] = [await claimOf(p), await claimOf(other)];

    const page = (await admin.get(`/admin/partners/${p.partnerId}`)).text;
    const links = {
      policies: `/admin/policies?partner=${p.partnerId}&mode=all`,
      claims: `/admin/claims?partner=${p.partnerId}`,
      fundings: `/admin/fundings?show=all&partner=${p.partnerId}`,
    };
    for (const href of Object.values(links)) expect(page).toContain(`href="${href}"`);
    // The partner page's top-ups carry no filter of the partner's own wallet page.
    expect(page).not.toContain("/portal/wallet");

    const claims = await admin.get(links.claims);
    expect(claims.status).toBe(200);
    expect(claims.text).toContain(mine);
    expect(claims.text).not.toContain(theirs);
    expect(claims.text).toContain(`<option value="${p.partnerId}" selected>${p.name}</option>`);
    expect(claims.text).toContain(`/admin/claims.csv?partner=${p.partnerId}`);
    const csv = await admin.get(`/admin/claims.csv?partner=${p.partnerId}`);
    expect(csv.text).toContain(mine);
    expect(csv.text).not.toContain(theirs);
    // Every partner's again without the choice; a partner id that is none is no filter.
    for (const path of ["/admin/claims", "/admin/claims?partner=nope"]) {
      const all = await admin.get(path);
      expect(all.text).toContain(mine);
      expect(all.text).toContain(theirs);
    }

    const plans = await admin.get(`/admin/financing?partner=${p.partnerId}`);
    expect(plans.status).toBe(200);
    expect(plans.text).toContain(`<option value="${p.partnerId}" selected>${p.name}</option>`);
    expect(plans.text).toContain(`/admin/financing.csv?partner=${p.partnerId}`);
  });

  test("no such partner, the operator's own account and a partner's staff: 404, 404, 403", async () => {
    const { operator, admin } = await operatorAccount();
    for (const id of [crypto.randomUUID(), "not-an-id", operator.partnerId]) {
      const answer = await admin.get(`/admin/partners/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.text).toContain("No such partner.");
    }
    const p = await t.partner();
    expect((await (await signedIn(t, p.portal)).get(`/admin/partners/${p.partnerId}`)).status).toBe(403);
  });
});

describe("the administrators page", () => {
  test("an administrator invites another (password shown once), who signs in to the operator's pages; audited", async () => {
    const { operator, admin } = await operatorAccount();
    const page = await admin.get("/admin/administrators");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<h1>Administrators</h1>");
    expect(page.text).toContain(operator.portal.email);
    expect(page.text).toContain('<span class="muted">You</span>');
    expect(page.text).toContain('href="/admin/administrators" aria-current="page"');

    const { browser: second, email, home } = await invite(admin, "/admin/administrators", "Bola Second");
    expect(home).toBe("/admin");
    expect((await second.get("/admin/fundings")).status).toBe(200);
    const list = await admin.get("/admin/administrators");
    expect(list.text).toContain(email);
    expect(list.text).toContain('<td data-label="Role">Administrator</td>');
    expect(list.text).not.toContain('id="one-time-password"');
    expect(await auditOf(operator.partnerId, "admin.invite")).toMatchObject([{ actor: operator.portal.email, subject: email }]);
    const audit = await admin.get("/admin/audit");
    expect(audit.text).toContain("Administrator invited");
  });

  test("refusals: a bad e-mail and a taken one beside the field; partners cannot open the page", async () => {
    const { operator, admin } = await operatorAccount();
    await admin.get("/admin/administrators");
    const bad = await admin.post("/admin/administrators", { name: "Tolu", email: "tolu-at-operator" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('id="f-email-error"');
    expect(bad.text).toContain('value="tolu-at-operator"');
    const taken = await admin.post("/admin/administrators", { name: "Again", email: operator.portal.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.text).toContain("already exists");
    expect(await auditOf(operator.partnerId, "admin.invite")).toHaveLength(0);

    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    expect((await owner.get("/admin/administrators")).status).toBe(403);
    expect((await owner.post("/admin/administrators", { name: "Sneaky", email: "sneaky@partner.ng" })).status).toBe(403);
  });

  test("deactivating signs the other administrator out and keeps them out; reactivating lets them back; both audited", async () => {
    const { operator, admin } = await operatorAccount();
    const { browser: second, email, password } = await invite(admin, "/admin/administrators", "Chidi Second");
    const secondId = await userIdOf(operator, email);
    const off = await admin.post(`/admin/administrators/${secondId}/deactivate`, {});
    expect(off.status).toBe(200);
    expect(off.text).toContain(`${email} is deactivated and signed out everywhere.`);
    expect((await second.get("/admin")).status).toBe(303);
    expect((await new Browser(t).signIn(email, password)).status).toBe(403);
    const on = await admin.post(`/admin/administrators/${secondId}/reactivate`, {});
    expect(on.text).toContain(`${email} can sign in again.`);
    expect((await new Browser(t).signIn(email, password)).status).toBe(303);
    expect((await auditOf(operator.partnerId, "admin.deactivate")).map((e) => e.subject)).toEqual([email]);
    expect((await auditOf(operator.partnerId, "admin.reactivate")).map((e) => e.subject)).toEqual([email]);
  });

  test("never oneself, never the last active administrator, never another operator account's", async () => {
    const { operator, admin } = await operatorAccount();
    const selfId = await userIdOf(operator, operator.portal.email);
    const self = await admin.post(`/admin/administrators/${selfId}/deactivate`, {});
    expect(self.status).toBe(409);
    expect(self.text).toContain("You cannot deactivate or reactivate yourself: ask another administrator");

    const { browser: second, email } = await invite(admin, "/admin/administrators", "Dayo Second");
    const secondId = await userIdOf(operator, email);
    // The second deactivates the first; the first, acting on what it saw before (its page still open), cannot leave none.
    await second.get("/admin/administrators");
    expect((await second.post(`/admin/administrators/${selfId}/deactivate`, {})).status).toBe(200);
    const first: Viewer = {
      sessionId: crypto.randomUUID(),
      userId: selfId,
      email: operator.portal.email,
      name: "First",
      role: "admin",
      mustChangePassword: false,
      partnerId: operator.partnerId,
      partnerName: operator.name,
      mode: "test",
      enrichmentEnabled: true,
    };
    await expect(setStaffActive(db, first, secondId, false, new Date())).rejects.toThrow("this is the last active administrator");
    expect((await listUsers(db, operator.partnerId)).find((u) => u.id === secondId)?.active).toBe(true);

    // Another operator account's administrator is no one on this account; neither is a partner's owner.
    const other = await operatorAccount();
    await other.admin.get("/admin/administrators");
    const elsewhere = await other.admin.post(`/admin/administrators/${secondId}/deactivate`, {});
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).toContain("No such administrator on this account");
    const p = await t.partner();
    const ownerId = await userIdOf(p, p.portal.email);
    expect((await second.post(`/admin/administrators/${ownerId}/deactivate`, {})).status).toBe(404);
    expect(await auditOf(operator.partnerId, "admin.deactivate")).toHaveLength(1);
  });
});

describe("the operator's accounts are not partners", () => {
  test("absent from the partners list, the statements picker and the commission rates' picker", async () => {
    const { operator, admin } = await operatorAccount();
    const p = await t.partner({ name: `Abuja Broker ${crypto.randomUUID().slice(0, 6)}` });
    const partners = await admin.get("/admin/partners");
    expect(partners.text).toContain(p.name);
    // (Its name is in the header, as the signed-in administrator's account.)
    expect(partners.text).not.toContain(operator.partnerId);

    const statements = await admin.get("/admin/statements");
    expect(statements.text).toContain(`<option value="${p.partnerId}">${p.name}</option>`);
    expect(statements.text).not.toContain(operator.partnerId);
    const refused = await admin.get(`/admin/statements?partner=${operator.partnerId}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("choose a partner from the list");

    const rates = await admin.get(`/admin/commissions/${allProductCodes()[0]}`);
    expect(rates.text).toContain(p.partnerId);
    expect(rates.text).not.toContain(operator.partnerId);
  });
});

describe("the operator's voice", () => {
  test("the operator's pages are the operator console's, and its statements speak of the partner", async () => {
    const { admin } = await operatorAccount();
    const p = await t.partner();
    for (const path of ["/admin", "/admin/partners", `/admin/partners/${p.partnerId}`, "/admin/administrators", "/admin/statements"]) {
      const page = await admin.get(path);
      expect(page.text).toContain('class="brand" href="/admin">');
      expect(page.text).toContain("Operator console");
      expect(page.text).not.toContain("Partner portal");
    }
    const statement = words((await admin.get(`/admin/statements?partner=${p.partnerId}`)).text);
    expect(statement).toContain("What the partner paid for the month");
    expect(statement).toContain("The partner's share of the premium");
    expect(statement).toContain("What a partner's live business cost");
    expect(statement).not.toMatch(/\byour?\b/i);

    expect((await admin.get("/admin/claims.csv")).text).toContain("Partner,Claim number,The partner's reference,Policy");

    // The partner's own statement keeps speaking to the partner.
    const owner = await signedIn(t, p.portal);
    const own = await owner.get("/portal/statements");
    expect(own.text).toContain("Partner portal");
    expect(own.text).toContain("What you paid for the month");
    expect(own.text).toContain("What your live business cost");
  });
});
