import type { Page } from "@playwright/test";
import { accounts } from "./server";
import { command, expect, expectAccessible, screenshot, signIn, test } from "./support";

/**
 * Issue 36, "seeing who and what": the operator opens a partner's page from the partners list, and
 * an administrator invites a second one (four eyes) who signs in; at desktop and phone width, with
 * screenshots.
 */

test.describe.configure({ mode: "serial" });

const widths = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
];

/** Nothing on the page is wider than the screen: a wide table scrolls inside its own box. */
const expectNoSidewaysScroll = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at a ${width} px screen`).toBeLessThanOrEqual(width);

test("the operator opens a partner's page from the partners list: account, balances, users, policies, top-ups, statements", async ({ page }) => {
  const { demoPartner, operatorAdmin } = accounts();
  const reference = `partner-page-${crypto.randomUUID().slice(0, 8)}`;
  await command(page, demoPartner, "live", "wallet topup", { amount: 20_000, reference });
  await signIn(page, operatorAdmin);
  await expect(page.locator("header .brand")).toHaveText("Operator console");
  for (const { name, width } of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/partners");
    // The operator's own account is no partner.
    await expect(page.getByRole("link", { name: operatorAdmin.name, exact: true })).toHaveCount(0);
    await page.getByRole("link", { name: demoPartner.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/partners/${demoPartner.partnerId}$`));
    await expect(page.getByRole("heading", { level: 1, name: demoPartner.name })).toBeVisible();
    await expect(page.locator(".tile", { hasText: "Live wallet balance" })).toBeVisible();
    await expect(page.locator(".tile", { hasText: "Test balance" })).toBeVisible();
    for (const section of ["Users", "Newest policies", "Live top-ups", "Statements"]) await expect(page.getByRole("heading", { name: section })).toBeVisible();
    await expect(page.getByRole("table", { name: `Portal users of ${demoPartner.name}` })).toContainText(demoPartner.portal.email);
    await expect(page.getByRole("table", { name: "Live top-ups, newest first" })).toContainText(reference);
    await expectNoSidewaysScroll(page, width);
    await expectAccessible(page);
    await screenshot(page, `operator-partner-page-${name}`);
  }
  // A month's statement opens with the partner chosen, in the operator's words.
  await page
    .getByRole("table", { name: `Monthly statements of ${demoPartner.name}` })
    .getByRole("link")
    .first()
    .click();
  await expect(page.getByLabel("Partner")).toHaveValue(demoPartner.partnerId);
  await expect(page.getByRole("table", { name: "Net due for the month" })).toContainText("What the partner paid for the month");
  await expect(page.getByLabel("Partner").locator("option", { hasText: operatorAdmin.name })).toHaveCount(0);
});

test("an administrator invites a second one, who signs in with the one-time password; deactivating asks first, naming them", async ({ page, browser }) => {
  const { operatorAdmin } = accounts();
  await signIn(page, operatorAdmin);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Administrators" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Administrators" })).toBeVisible();
  const email = `second.${crypto.randomUUID().slice(0, 8)}@operator.example`;
  await page.getByLabel("Name").fill("Second Administrator");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Invite" }).click();
  const oneTime = (await page.locator("#one-time-password").textContent())!.trim();
  expect(oneTime.length).toBeGreaterThan(10);
  await expect(page.getByRole("table", { name: "The operator's administrators" })).toContainText(email);
  await expectAccessible(page);
  await screenshot(page, "operator-administrator-invited-desktop");

  // The second administrator signs in at phone width, chooses a password and reaches the operator's pages.
  const phone = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const second = await phone.newPage();
  await signInFirstTime(second, email, oneTime);
  // Hashing the new password takes a while on a busy machine.
  await expect(second.getByRole("heading", { level: 1, name: "Approvals" })).toBeVisible({ timeout: 30_000 });
  await second.goto("/admin/administrators");
  await expect(second.getByRole("row", { name: new RegExp(email) })).toContainText("You");
  await expectNoSidewaysScroll(second, 390);
  await expectAccessible(second);
  await screenshot(second, "operator-administrators-phone");
  await phone.close();

  // The first deactivates the second, after a question naming them.
  const asked: string[] = [];
  page.once("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await page.goto("/admin/administrators");
  await page.getByRole("button", { name: `Deactivate ${email}` }).click();
  await expect(page.locator("#team .success")).toHaveText(`${email} is deactivated and signed out everywhere.`);
  expect(asked).toEqual([`Deactivate ${email}? They are signed out at once and cannot sign in until reactivated.`]);
  await expect(page.getByRole("row", { name: new RegExp(email) })).toContainText("Deactivated");
  await page.getByRole("button", { name: `Reactivate ${email}` }).click();
  await expect(page.locator("#team .success")).toHaveText(`${email} can sign in again.`);
  await screenshot(page, "operator-administrator-reactivated-desktop");
});

/** Sign in with a one-time password and choose one's own. */
async function signInFirstTime(page: Page, email: string, oneTime: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(oneTime);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/portal\/password$/);
  await page.getByLabel("Current password").fill(oneTime);
  await page.getByLabel("New password", { exact: true }).fill("a long chosen password");
  await page.getByLabel("New password again").fill("a long chosen password");
  await page.getByRole("button", { name: "Change password" }).click();
}
