import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, desc, eq, like } from "drizzle-orm";
import { passwordLinks } from "../src/modules/accounts/schema";
import { previousMonth } from "../src/modules/commissions";
import { mailStatements } from "../src/modules/commissions/statement-mail";
import { currentWatMonth } from "../src/modules/enrichment";
import { messages } from "../src/modules/messages";
import { partners, portalUsers } from "../src/modules/partners/schema";
import { runOperatorCommand } from "../src/operator";
import { Browser, signedIn } from "./portal/browser";
import { engine, testApp } from "./support/harness";

const t = await testApp();
const db = t.database.db;
const PASSWORD = "my own chosen password";

const mailsTo = (email: string, kind: string) =>
  db
    .select()
    .from(messages)
    .where(and(eq(messages.recipient, email.toLowerCase()), eq(messages.kind, kind)))
    .orderBy(desc(messages.createdAt));

const linkIn = (body: string) => new URL(/https?:\/\/\S+\/reset\/[\w-]+/.exec(body)![0]).pathname;

async function choose(path: string, password = PASSWORD) {
  const browser = new Browser(t);
  const form = await browser.get(path);
  if (form.status !== 200) return form;
  return browser.post(path, { password, confirmPassword: password });
}

/** The owner invites someone from the team page: the one-time password shown, and the e-mail queued. */
async function invite(owner: Browser, href = "/portal/team") {
  const email = `invitee.${crypto.randomUUID().slice(0, 6)}@partner.ng`;
  await owner.get(href);
  const page = await owner.post(href, { email, name: "Ngozi Invitee" });
  expect(page.status).toBe(200);
  const oneTimePassword = /id="one-time-password"[^>]*>\s*([^<\s]+)\s*</.exec(page.text)![1]!;
  const [user] = await db.select({ id: portalUsers.id }).from(portalUsers).where(eq(portalUsers.email, email));
  return { email, oneTimePassword, page, id: user!.id };
}

describe("invitations by e-mail", () => {
  test("inviting staff e-mails a link in the partner's name; choosing the password with it signs in without the one-time password", async () => {
    const p = await t.partner({ name: `Kola Motors ${crypto.randomUUID().slice(0, 4)}` });
    const owner = await signedIn(t, p.portal);
    const before = Date.now();
    const invited = await invite(owner);
    expect(invited.page.text).toContain("We have e-mailed them a link to choose their password");
    const [mail] = await mailsTo(invited.email, "staff.invitation");
    expect(mail).toMatchObject({
      channel: "email",
      status: "queued",
      partnerId: p.partnerId,
      recipientName: "Ngozi Invitee",
      subject: `${p.name} invites you to the partner portal`,
    });
    expect(mail!.body).toContain(`of ${p.name} has invited you to the partner portal as a staff member`);
    expect(mail!.body).toContain("/login");
    const [link] = await db.select().from(passwordLinks).where(eq(passwordLinks.userId, invited.id));
    expect(link!.purpose).toBe("invitation");
    // INVITATION_TTL_HOURS, 72 by default.
    expect(Math.round((link!.expiresAt.getTime() - before) / 3_600_000)).toBe(72);

    const path = linkIn(mail!.body);
    const form = await new Browser(t).get(path);
    expect(form.text).toContain("Choose your password");
    expect((await choose(path)).location).toBe("/login?password=chosen");
    // Their own password opens the portal at once: nothing more to change.
    const signIn = await new Browser(t).signIn(invited.email, PASSWORD);
    expect(signIn.location).toBe("/portal");
    expect((await new Browser(t).signIn(invited.email, invited.oneTimePassword)).status).toBe(401);
    // The team page no longer offers to invite them again, and refuses it.
    await owner.get("/portal/team");
    const again = await owner.post(`/portal/team/${invited.id}/invitation`, {});
    expect(again.status).toBe(409);
    expect(again.text).toContain("has already chosen their password");
  });

  test("the one-time password stays the way in where no e-mail arrives; choosing one's own password ends the e-mailed link", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const invited = await invite(owner);
    const staff = new Browser(t);
    expect((await staff.signIn(invited.email, invited.oneTimePassword)).location).toBe("/portal/password");
    await staff.get("/portal/password");
    const changed = await staff.post("/portal/password", { currentPassword: invited.oneTimePassword, newPassword: PASSWORD, confirmPassword: PASSWORD });
    expect(changed.status).toBe(303);
    const [mail] = await mailsTo(invited.email, "staff.invitation");
    expect((await choose(linkIn(mail!.body), "somebody else's choice")).status).toBe(410);
  });

  test("the team page sends the invitation again with a new link; the older one stops working", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const invited = await invite(owner);
    const team = await owner.get("/portal/team");
    expect(team.text).toContain(`/portal/team/${invited.id}/invitation`);
    expect(team.text).toContain("Resend invitation");
    const resent = await owner.post(`/portal/team/${invited.id}/invitation`, {});
    expect(resent.status).toBe(200);
    expect(resent.text).toContain(`The invitation was sent to ${invited.email} again`);
    const [newer, older] = await mailsTo(invited.email, "staff.invitation");
    expect(older).toBeDefined();
    expect((await choose(linkIn(older!.body))).status).toBe(410);
    expect((await choose(linkIn(newer!.body))).status).toBe(303);
    // Someone of another account is not the owner's to invite.
    const other = await t.partner();
    const stranger = await invite(await signedIn(t, other.portal));
    await owner.get("/portal/team");
    expect((await owner.post(`/portal/team/${stranger.id}/invitation`, {})).status).toBe(404);
  });

  test("an administrator's invitation of another administrator is e-mailed in the operator's name", async () => {
    const operator = await t.partner({ admin: true, name: `Operator ${crypto.randomUUID().slice(0, 4)}` });
    const admin = await signedIn(t, operator.portal);
    const invited = await invite(admin, "/admin/administrators");
    const [mail] = await mailsTo(invited.email, "staff.invitation");
    expect(mail!.subject).toBe(`${operator.name} invites you to the partner portal`);
    expect(mail!.body).toContain("as an administrator");
    expect((await choose(linkIn(mail!.body))).status).toBe(303);
    expect((await new Browser(t).signIn(invited.email, PASSWORD)).location).toBe("/admin");
  });
});

describe("npm run cli -- reset-link <email>", () => {
  test("prints a link for any user that opens the reset page once; an unknown e-mail is refused", async () => {
    const p = await t.partner();
    const printed = (await runOperatorCommand(db, ["reset-link", p.portal.email.toUpperCase()], t.config)) as {
      email: string;
      link: string;
      expiresAt: string;
    };
    expect(printed.email).toBe(p.portal.email);
    expect(printed.link).toMatch(/^http:\/\/localhost:\d+\/reset\/[\w-]{43}$/);
    expect((await choose(new URL(printed.link).pathname)).status).toBe(303);
    expect((await new Browser(t).signIn(p.portal.email, PASSWORD)).status).toBe(303);
    // Printed, not e-mailed.
    expect(await mailsTo(p.portal.email, "staff.password_reset")).toHaveLength(0);
    await expect(runOperatorCommand(db, ["reset-link", "nobody@nowhere.ng"], t.config)).rejects.toThrow("no portal user has the e-mail nobody@nowhere.ng");
    await expect(runOperatorCommand(db, ["reset-link"], t.config)).rejects.toThrow("reset-link needs the user's e-mail");
  });

  test.skipIf(engine === "postgres")(
    "as a real process on the embedded database: one JSON line with the link under PUBLIC_URL",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "cli-reset-"));
      const root = new URL("..", import.meta.url).pathname;
      const env = { ...process.env, DATABASE_URL: undefined, DATA_DIR: dir, PUBLIC_URL: "https://portal.example.ng" };
      const cli = async (args: string[]) => {
        const child = Bun.spawn(["npm", "run", "--silent", "cli", "--", ...args], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
        const stdout = await new Response(child.stdout).text();
        await child.exited;
        return { stdout, code: child.exitCode };
      };
      try {
        const created = JSON.parse(
          (await cli(["partner", "create", "--name", "First Owner Ltd", "--email", "first@owner.ng"])).stdout.trim().split("\n").at(-1)!,
        );
        expect(created.portal.email).toBe("first@owner.ng");
        const { stdout, code } = await cli(["reset-link", "first@owner.ng"]);
        expect(code).toBe(0);
        expect(JSON.parse(stdout.trim().split("\n").at(-1)!).link).toMatch(/^https:\/\/portal\.example\.ng\/reset\/[\w-]{43}$/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe("the monthly statement to the finance contact", () => {
  test("the owner sets the finance contact on the account page (the operator sees it); bad input is said beside the field", async () => {
    const p = await t.partner();
    const owner = await signedIn(t, p.portal);
    const page = await owner.get("/portal/account");
    expect(page.status).toBe(200);
    expect(page.text).toContain("No finance contact yet");
    const bad = await owner.post("/portal/account", { financeEmail: "accounts at partner" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("must be an e-mail address");
    const saved = await owner.post("/portal/account", { financeEmail: " Accounts@Partner.ng " });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("Monthly statements will be e-mailed to accounts@partner.ng");
    const [row] = await db.select({ financeEmail: partners.financeEmail }).from(partners).where(eq(partners.id, p.partnerId));
    expect(row!.financeEmail).toBe("accounts@partner.ng");
    const operator = await t.partner({ admin: true });
    const seen = await (await signedIn(t, operator.portal)).get(`/admin/partners/${p.partnerId}`);
    expect(seen.text).toContain("Monthly statements are e-mailed to <span>accounts@partner.ng</span>.");
    // Staff do not set it.
    const invited = await invite(owner);
    const staff = new Browser(t);
    await staff.signIn(invited.email, invited.oneTimePassword);
    await staff.get("/portal/password");
    await staff.post("/portal/password", { currentPassword: invited.oneTimePassword, newPassword: PASSWORD, confirmPassword: PASSWORD });
    expect((await staff.get("/portal/account")).status).toBe(403);
  });

  test("once a month is over, one e-mail per partner with its figures and link; none without a finance contact", async () => {
    const withContact = await t.partner({ name: `Ada Finance ${crypto.randomUUID().slice(0, 4)}` });
    const without = await t.partner();
    // Both were partners through the month that ended.
    await db
      .update(partners)
      .set({ createdAt: new Date("2020-01-01T00:00:00Z") })
      .where(eq(partners.id, withContact.partnerId));
    await db
      .update(partners)
      .set({ createdAt: new Date("2020-01-01T00:00:00Z") })
      .where(eq(partners.id, without.partnerId));
    await db.update(partners).set({ financeEmail: "finance@ada.ng" }).where(eq(partners.id, withContact.partnerId));
    const now = new Date();
    const month = previousMonth(currentWatMonth(now));
    expect(await mailStatements(db, t.config, now)).toBeGreaterThanOrEqual(1);
    // Again, and at once twice over: still one.
    await Promise.all([mailStatements(db, t.config, now), mailStatements(db, t.config, now)]);
    const sent = await db
      .select()
      .from(messages)
      .where(like(messages.dedupeKey, `statement:${withContact.partnerId}:%`));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      kind: "staff.statement",
      recipient: "finance@ada.ng",
      partnerId: withContact.partnerId,
      dedupeKey: `statement:${withContact.partnerId}:${month}`,
    });
    expect(sent[0]!.subject).toContain(withContact.name);
    expect(sent[0]!.body).toContain("Net due: ₦0.00");
    expect(sent[0]!.body).toContain("Opening balance: ₦0.00");
    expect(sent[0]!.body).toContain(`/portal/statements?month=${month}`);
    expect(
      await db
        .select()
        .from(messages)
        .where(like(messages.dedupeKey, `statement:${without.partnerId}:%`)),
    ).toHaveLength(0);
  });

  test("a partner opened after the month gets no statement for it", async () => {
    const p = await t.partner();
    await db.update(partners).set({ financeEmail: "finance@new.ng" }).where(eq(partners.id, p.partnerId));
    await mailStatements(db, t.config, new Date());
    expect(
      await db
        .select()
        .from(messages)
        .where(like(messages.dedupeKey, `statement:${p.partnerId}:%`)),
    ).toHaveLength(0);
  });
});
