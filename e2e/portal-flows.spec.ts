import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { APIRequestContext } from "@playwright/test";
import { type Account, accounts } from "./server";
import { expect, expectAccessible, screenshot, signIn, test, visit } from "./support";

test.describe.configure({ mode: "serial" });

/** A command on the JSON surface with one of the account's keys. */
async function command(request: APIRequestContext, account: Account, label: "test" | "live" | "legacy", cmmnd: string, seed?: unknown) {
  const response = await request.post("/", {
    data: { userInfo: { id: account.partnerId, athrzt: account.keys[label] }, cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed } },
  });
  return response.json();
}

test("an owner invites staff; the staff member chooses a password, tops up the wallet and files a claim", async ({ browser }) => {
  const { demoPartner } = accounts();
  const owner = await (await browser.newContext()).newPage();
  owner.on("dialog", (dialog) => void dialog.accept());
  await signIn(owner, demoPartner);
  await command(owner.request, demoPartner, "legacy", "set env_test");

  await visit(owner, "/portal/team", "team");
  await owner.getByLabel("Name", { exact: true }).fill("Bola Ade");
  await owner.getByLabel("E-mail", { exact: true }).fill("bola@demo-partner.ng");
  await owner.getByRole("button", { name: /invite/i }).click();
  const oneTimePassword = (await owner.locator(".secret").first().textContent())!.trim();
  expect(oneTimePassword.length).toBeGreaterThan(10);

  const staff = await (await browser.newContext()).newPage();
  await staff.goto("/login");
  await staff.getByLabel("E-mail", { exact: true }).fill("bola@demo-partner.ng");
  await staff.getByLabel("Password", { exact: true }).fill(oneTimePassword);
  await staff.getByRole("button", { name: "Sign in" }).click();
  await expect(staff.getByRole("heading", { name: "Change password" })).toBeVisible();
  await expectAccessible(staff);
  await staff.getByLabel("Current password", { exact: true }).fill(oneTimePassword);
  await staff.getByLabel("New password", { exact: true }).fill("bola chooses a long one");
  await staff.getByLabel("New password again", { exact: true }).fill("bola chooses a long one");
  await staff.getByRole("button", { name: "Change password" }).click();
  await expect(staff.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  // Wallet top-up through the page.
  await visit(staff, "/portal/wallet", "wallet");
  await staff.getByLabel("Amount in naira", { exact: true }).fill("250,000");
  await staff.getByLabel("Payment reference", { exact: true }).fill("TRF-2026-0001");
  await staff.getByRole("button", { name: "Top up" }).click();
  await expect(staff.locator("#wallet")).toContainText("₦250,000.00");
  await screenshot(staff, "wallet-after-topup");

  // A phone policy issued by the partner's system (test key), then a claim on it through the portal.
  const consumer = await command(staff.request, demoPartner, "test", "prfl entity", {
    class: "h",
    name: { first: "Funke", last: "Bello" },
    phoneNo: "+2348061234567",
    eMail: "funke.bello@example.ng",
  });
  const reference = crypto.randomUUID();
  const policy = await command(staff.request, demoPartner, "test", `entt_${consumer.id}: insure`, {
    ctgry: "phnn",
    type: "flx1",
    pckg: "1111",
    id: reference,
    insrncDrtn: "1y",
    addtnlFact: { brand: "Samsung", model: "Galaxy A54", uIdnt: "356938035643809" },
  });
  expect(policy.status).toBe("a");
  await visit(staff, `/portal/claims/new?policy=${reference}`, "claim-form");
  await staff.getByLabel("Date of the incident", { exact: true }).fill(new Date(Date.now() + 3_600_000).toISOString().slice(0, 10));
  await staff.getByLabel("What happened", { exact: true }).fill("The screen cracked when the phone fell on a tiled floor.");
  await staff.getByLabel("Amount claimed in naira", { exact: true }).fill("45,000");
  await staff.getByRole("button", { name: "Submit the claim" }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toContainText("CLM-");
  await expectAccessible(staff);
  await screenshot(staff, "claim-detail");
});

test("a webhook endpoint receives a signed test event, shown in the delivery log", async ({ browser }) => {
  const { demoPartner } = accounts();
  const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/orders`;
  try {
    const page = await (await browser.newContext()).newPage();
    await signIn(page, demoPartner);
    await visit(page, "/portal/webhooks", "webhooks");
    await page.getByLabel("URL", { exact: true }).fill(url);
    await page.getByLabel("Description", { exact: true }).fill("Orders system");
    await page.getByRole("button", { name: "Register endpoint" }).click();
    await expect(page.locator(".secret")).toContainText("whsec_");
    await page.getByRole("link", { name: url }).click();
    await page.getByRole("button", { name: "Send a test event" }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(received[0]!.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(JSON.parse(received[0]!.body).type).toBe("webhook.test");
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator("table").textContent();
        },
        { timeout: 15_000 },
      )
      .toContain("succeeded");
    await expectAccessible(page);
    await screenshot(page, "webhook-endpoint");
  } finally {
    receiver.close();
  }
});

test("the API log shows the partner's requests and answers, the key redacted, filtered by outcome", async ({ browser }) => {
  const { demoPartner } = accounts();
  const page = await (await browser.newContext()).newPage();
  await signIn(page, demoPartner);
  const refused = await command(page.request, demoPartner, "test", "dump ipck_vhcl-tprt-1111*PRMM", { insrncDrtn: "2y" });
  expect(refused.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
  await page.goto("/portal");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API log" }).click();
  await page.getByLabel("Outcome").selectOption("55");
  await page.getByRole("button", { name: "Filter" }).click();
  // With several instances, another instance's rows arrive within its flush interval.
  const row = page.getByRole("row").filter({ hasText: refused.exctnFdbck.elbrtn });
  await expect(async () => {
    await page.reload();
    await expect(row.first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await row.first().getByText("Request and response").click();
  const details = row.first().locator("pre").first();
  await expect(details).toContainText('"insrncDrtn": "2y"');
  await expect(details).toContainText('"key": "[redacted]"');
  await expect(row.first()).not.toContainText(demoPartner.keys.test.key);
  await expect(page.getByRole("row").filter({ hasText: "75 · 200" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, "api-log");
});

test("the owner rotates the test key: the new key works at once, the old one is refused", async ({ browser }) => {
  const { demoPartner } = accounts();
  const page = await (await browser.newContext()).newPage();
  page.on("dialog", (dialog) => void dialog.accept());
  await signIn(page, demoPartner);
  await visit(page, "/portal/keys", "api-keys");
  expect((await command(page.request, demoPartner, "test", "dump entt_*CSTMRS")).exctnFdbck.id).toBe(75);
  await page.getByRole("button", { name: "Rotate the test key" }).click();
  const key = (await page.locator("#new-key").textContent())!.trim();
  const id = (await page.locator("#new-key-id").textContent())!.trim();
  expect(key).toHaveLength(44);
  const old = await command(page.request, demoPartner, "test", "dump entt_*CSTMRS");
  expect(old.exctnFdbck).toMatchObject({ id: 55, id_v4: 401 });
  const fresh = await page.request.post("/", { data: { userInfo: { id: demoPartner.partnerId, athrzt: { id, key } }, cmmnd: { cmmnd: "dump entt_*CSTMRS" } } });
  expect((await fresh.json()).exctnFdbck.id).toBe(75);
  await screenshot(page, "api-keys-rotated");
});
