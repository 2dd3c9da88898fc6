import type { Page } from "@playwright/test";
import { type Account, accounts } from "./server";
import { expect, expectAccessible, expectNoSidewaysScroll, screenshot, signIn, test } from "./support";

/**
 * axe-core takes about 10 s a page on a loaded two-core machine (over a minute for the long /docs),
 * so every page is a test of its own (both widths, its own timeout from playwright.config.ts): one
 * slow page cannot push the others past a shared limit.
 */

const widths = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
];

/** What the main navigation offers each role (the demo accounts are owners with vehicle checks). */
const partnerNav = [
  "/portal",
  "/portal/consumers",
  "/portal/quote",
  "/portal/policies",
  "/portal/claims",
  "/portal/complaints",
  "/portal/financing",
  "/portal/wallet",
  "/portal/statements",
  "/portal/webhooks",
  "/portal/messages",
  "/portal/message-settings",
  "/portal/vehicle",
  "/portal/keys",
  "/portal/api-log",
  "/portal/team",
  "/portal/account",
];
const partnerForms = ["/portal/consumers/new", "/portal/quote?product=ltix-stnd-1111", "/portal/claims/new", "/portal/financing/new", "/portal/password"];
const adminNav = [
  "/admin",
  "/admin/dashboard",
  "/admin/policies",
  "/admin/consumers",
  "/admin/claims",
  "/admin/payouts",
  "/admin/complaints",
  "/admin/partners",
  "/admin/administrators",
  "/admin/financing",
  "/admin/commissions",
  "/admin/statements",
  "/admin/fundings",
  "/admin/reports",
  "/admin/reports/regulator",
  "/admin/reports/complaints",
  "/admin/audit",
  "/admin/messages",
  "/admin/holidays",
];

const navLinks = (page: Page) =>
  page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link")
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));

/** The page at both widths, checked with axe-core and for sideways scrolling; a screenshot at each for people to look at. */
async function checkAtEveryWidth(page: Page, path: string, screenshotName: string) {
  for (const { name, width } of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    await expectNoSidewaysScroll(page, width);
    await expectAccessible(page);
    await screenshot(page, `${screenshotName}-${name}`);
  }
}

const screenshotName = (prefix: string, path: string) => `${prefix}${path.replace(/\?.*/, "").replaceAll("/", "-")}`;

const unknownCertificate = "/verify/POL-NONE-2026-000000000000";

test.describe("the public pages are accessible", () => {
  // The unknown certificate's page answers 404 on purpose, which Chromium logs as a failed load.
  test.use({
    allowedBrowserErrors: [new RegExp(`from http://[^ ]+${unknownCertificate}: Failed to load resource: the server responded with a status of 404`)],
  });
  for (const path of ["/", "/login", "/docs", unknownCertificate])
    test(path, async ({ page }) => {
      await page.goto(path);
      await expectAccessible(page);
      await page.setViewportSize({ width: 390, height: 900 });
      await expectNoSidewaysScroll(page, 390);
    });
});

for (const [role, account, nav, others, prefix] of [
  ["partner", () => accounts().demoPartner, partnerNav, partnerForms, "partner"],
  ["administrator", () => accounts().operatorAdmin, adminNav, [], "admin"],
] as [string, () => Account, string[], string[], string][]) {
  test.describe(`every ${role} page is accessible, at desktop and phone width`, () => {
    test("the navigation offers exactly the pages checked here; on a phone it folds into a Menu button", async ({ page }) => {
      await signIn(page, account());
      expect(await navLinks(page)).toEqual(nav);
      await page.setViewportSize({ width: 390, height: 900 });
      const menu = page.getByRole("button", { name: "Menu" });
      await expect(menu).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link").first()).toBeHidden();
      await menu.click();
      await expect(menu).toHaveAttribute("aria-expanded", "true");
      await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link").first()).toBeVisible();
    });
    for (const path of [...nav, ...others])
      test(path, async ({ page }) => {
        await signIn(page, account());
        await checkAtEveryWidth(page, path, screenshotName(prefix, path));
      });
  });
}
