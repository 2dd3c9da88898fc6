import type { Page } from "@playwright/test";
import { accounts } from "./server";
import { command, expect, expectAccessible, screenshot, signIn, test } from "./support";

/**
 * The portal speaks to people (issue 15), in a browser: refusals in words beside each field, all at
 * once; what people type accepted; error pages with the way back; a mode switch that a reload does
 * not send again; a verification page a traffic officer can read. At desktop and phone width.
 */

test.describe.configure({ mode: "serial" });

// Refusals and unknown addresses answer 4xx on purpose, which Chromium logs as failed loads.
test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 40[034]/] });

const widths = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
];

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

for (const { name, width } of widths)
  test(`a refused form says what is wrong beside every field, in words, and keeps what was typed (${name})`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, accounts().demoPartner);
    await page.goto("/portal/consumers/new");
    await page.getByLabel("First name", { exact: true }).fill("Tunde");
    await page.getByLabel("Phone number", { exact: true }).fill("12");
    await page.getByLabel("E-mail", { exact: true }).fill("not an address");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Phone number must be a Nigerian number such as 0803 123 4567")).toBeVisible();
    await expect(page.getByText("E-mail must be a valid e-mail address")).toBeVisible();
    await expect(page.getByLabel("First name", { exact: true })).toHaveValue("Tunde");
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toMatch(/seed\.|\bJSON\b|kobo|phoneNo|eMail/);
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await screenshot(page, `refused-consumer-form-${name}`);

    // What people type: a Nigerian number as dialled.
    await page.getByLabel("Phone number", { exact: true }).fill("0803 123 4567");
    await page.getByLabel("E-mail", { exact: true }).fill(`tunde.${name}.${Date.now()}@example.ng`);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByRole("heading", { name: "Tunde" })).toBeVisible();
    await expect(page.locator("main")).toContainText("+2348031234567");
  });

for (const { name, width } of widths)
  test(`an unknown address is a page with the way home, inside the portal when signed in (${name})`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/no-such-page");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Partner portal: sign in" })).toBeVisible();
    await signIn(page, accounts().demoPartner);
    await page.goto("/portal/no-such-page");
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeAttached();
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await page.getByRole("link", { name: "Go to your home page" }).click();
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    const icon = await page.request.get("/favicon.ico");
    expect(icon.headers()["content-type"]).toBe("image/x-icon");
  });

test("switching to live mode asks first, ends on the keys page, and a reload sends nothing again", async ({ page }) => {
  const { demoPartner } = accounts();
  await signIn(page, demoPartner);
  await command(page, demoPartner, "legacy", "set env_test");
  let asked = "";
  page.on("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await page.goto("/portal/keys");
  await page.getByRole("button", { name: "Switch to live mode" }).click();
  await expect(page).toHaveURL(/\/portal\/keys\?switched=live$/);
  expect(asked).toContain("Switch to live mode?");
  await expect(page.getByRole("status").filter({ hasText: "The account is in live mode" })).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(/\/portal\/keys\?switched=live$/);
  await expect(page.locator("header")).toContainText("LIVE");
  // Back to test mode for the other specs.
  await page.getByRole("button", { name: "Switch to test mode" }).click();
  await expect(page).toHaveURL(/\/portal\/keys\?switched=test$/);
});

for (const { name, width } of widths)
  test(`the public verification page gives a clear verdict, the insurer, the insured item and the cover in words (${name})`, async ({ page }) => {
    const { demoPartner } = accounts();
    await page.setViewportSize({ width, height: 900 });
    const consumer = await command(page, demoPartner, "test", "prfl entity", {
      class: "h",
      name: { first: "Sade", last: "Adu" },
      phoneNo: "+2348071234567",
      eMail: `sade.${name}.${Date.now()}@example.ng`,
    });
    const policy = await command(page, demoPartner, "test", `entt_${consumer.id}: insure`, {
      ctgry: "phnn",
      type: "flx1",
      pckg: "1111",
      id: crypto.randomUUID(),
      insrncDrtn: "1y",
      addtnlFact: { brand: "Tecno", model: "Camon 20", uIdnt: "356938035643817" },
    });
    expect(policy.status).toBe("a");
    await page.goto(`/verify/${policy.policyNo}`);
    await expect(page.locator(".verdict")).toHaveText("Specimen");
    await expect(page.locator("dl")).toContainText("Insurer");
    await expect(page.locator("dl")).toContainText("Phone screen protection");
    await expect(page.locator("dl")).toContainText("Tecno Camon 20, IMEI 356938035643817");
    await expect(page.locator("dl")).toContainText(/\d{1,2} [A-Z][a-z]{2} \d{4} to \d{1,2} [A-Z][a-z]{2} \d{4}/);
    await expect(page.locator("main")).not.toContainText("00:00:00");
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await screenshot(page, `verify-${name}`);
  });
