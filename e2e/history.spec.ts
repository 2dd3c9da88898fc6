/**
 * Issue 36, finding things and seeing who: the audit log's filters with their count and subjects
 * linked to their records; a funding's history (who confirmed it, when) on the operator's page and
 * the partner's; test mode's own wallet. Each at 1280 and 390 px, axe-checked, screenshotted.
 */
import type { Page } from "@playwright/test";
import { accounts } from "./server";
import { command, expect, expectAccessible, screenshot, signIn, test } from "./support";

test.describe.configure({ mode: "serial" });

// The refused day answers 400 on purpose, which Chromium logs as a failed load.
test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 400/] });

const widths = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
] as const;
const tag = () => crypto.randomUUID().slice(0, 8).toUpperCase();

/** Nothing on the page is wider than the screen. */
async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at a ${width} px screen`).toBeLessThanOrEqual(width);
}

/** A live top-up of the demo partner confirmed by hand by the operator's administrator (below the four-eyes threshold). */
async function confirmedFunding(page: Page) {
  const { demoPartner } = accounts();
  const reference = `HIST-${tag()}-unpaid`;
  await command(page, demoPartner, "live", "wallet topup", { amount: 30_000, reference });
  await page.goto("/admin/fundings");
  const card = page.locator("article", { hasText: reference });
  await card.getByRole("link", { name: "Confirm a bank transfer" }).click();
  const form = page.locator("article", { hasText: reference });
  await form.getByLabel("Bank reference", { exact: true }).fill(`NIP${tag()}${tag()}`);
  await form.getByLabel("Amount received in naira", { exact: true }).fill("30,000");
  await form.getByRole("button", { name: "Confirm a bank transfer" }).click();
  // Crediting by hand asks first, naming the amount and the partner (e2e/confirmations.spec.ts).
  await page.getByRole("button", { name: /^Credit ₦30,000\.00 to / }).click();
  await expect(page.getByRole("status").filter({ hasText: "Confirmed: ₦30,000.00 is credited" })).toBeVisible();
  return reference;
}

test("the audit log: filters by account and subject with a count, the funding linked to its history, at both widths", async ({ page }) => {
  const { demoPartner, operatorAdmin } = accounts();
  await signIn(page, operatorAdmin);
  const reference = await confirmedFunding(page);

  for (const { name, width } of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/audit");
    await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: /(entry|entries) in all/ })).toBeVisible();
    await page.getByLabel("Account", { exact: true }).selectOption({ label: demoPartner.name });
    await page.getByLabel("About", { exact: true }).selectOption({ label: "Wallet funding" });
    await page.getByLabel("What", { exact: true }).selectOption({ label: "Bank transfer confirmed" });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/partner=.*about=funding/);
    await expect(page.getByRole("status").filter({ hasText: /match these filters|matches these filters/ })).toBeVisible();
    const row = page.locator("tr", { hasText: reference });
    await expect(row).toContainText("Bank transfer confirmed");
    await expect(row).toContainText(operatorAdmin.portal.email);
    await expect(row).not.toContainText("amountKobo");
    // Every row is what the filters select.
    for (const text of await page.locator("tbody tr").allTextContents()) expect(text).toContain("Bank transfer confirmed");
    // The CSV link carries the filters.
    await expect(page.getByRole("link", { name: /CSV/ })).toHaveAttribute("href", /\/admin\/audit\.csv\?partner=.*about=funding/);
    await expectNoSidewaysScroll(page, width);
    await expectAccessible(page);
    await screenshot(page, `history-audit-filtered-${name}`);

    // The subject opens the funding's history.
    await row.getByRole("link", { name: reference }).click();
    const card = page.locator("article", { hasText: reference });
    await expect(card).toContainText("Credited");
    await card.locator("summary").click();
    await expect(card).toContainText(`confirmed by ${operatorAdmin.portal.email}`);
    await expect(card).toContainText("below the four-eyes threshold");
    await expectNoSidewaysScroll(page, width);
    await expectAccessible(page);
    await screenshot(page, `history-admin-funding-${name}`);
  }

  // A refused day is said beside its input.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/admin/audit");
  await page.getByLabel("From", { exact: true }).fill("2026-11-20");
  await page.getByLabel("to", { exact: true }).fill("2026-11-10");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.locator("#f-to-error")).toBeVisible();
});

test.describe("the partner's fundings and test money", () => {
  test("a partner sees their credited top-up with its history, filtered, at both widths", async ({ page }) => {
    const { demoPartner, operatorAdmin } = accounts();
    await signIn(page, operatorAdmin);
    const reference = await confirmedFunding(page);
    await page.context().clearCookies();
    await signIn(page, demoPartner);
    await command(page, demoPartner, "legacy", "set env_live");
    try {
      for (const { name, width } of widths) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/portal/wallet");
        await page.getByLabel("Show", { exact: true }).selectOption({ label: "Credited" });
        await page.getByRole("button", { name: "Show", exact: true }).click();
        await expect(page).toHaveURL(/show=credited/);
        const row = page.locator("#funding-rows tr", { hasText: reference });
        await expect(row).toContainText("Credited");
        await row.locator("summary").click();
        await expect(row).toContainText("confirmed by an administrator");
        await expect(row).not.toContainText(operatorAdmin.portal.email);
        await expectNoSidewaysScroll(page, width);
        await expectAccessible(page);
        await screenshot(page, `history-partner-fundings-${name}`);
      }
    } finally {
      await command(page, demoPartner, "legacy", "set env_test");
    }
  });

  test("test mode's wallet shows its own balance and activity as test money", async ({ page }) => {
    const { demoPartner } = accounts();
    await signIn(page, demoPartner);
    const reference = `TEST-${tag()}`;
    await page.goto("/portal/wallet");
    await page.getByLabel("Amount in naira", { exact: true }).fill("12,500");
    await page.getByLabel("Payment reference", { exact: true }).fill(reference);
    await page.getByRole("button", { name: "Top up" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Test top-up" })).toBeVisible();
    for (const { name, width } of widths) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/portal/wallet");
      await expect(page.locator("#test-balance")).not.toHaveText("₦0.00");
      await expect(page.locator(".tile.test-money")).toContainText("Test money");
      await expect(page.locator("#test-ledger-rows tr", { hasText: reference })).toContainText("₦12,500.00");
      await expectNoSidewaysScroll(page, width);
      await expectAccessible(page);
      await screenshot(page, `history-test-wallet-${name}`);
    }
  });
});
