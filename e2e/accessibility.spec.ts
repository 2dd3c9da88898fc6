import { expect, test, type Page } from "@playwright/test";
import { accounts } from "./server";
import { expectAccessible, screenshot, signIn } from "./support";

/** Every page the navigation offers, checked with axe-core at desktop and phone width. */
async function everyNavPage(page: Page, prefix: string) {
  const links = await page.getByRole("navigation", { name: "Main" }).getByRole("link").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
  expect(links.length).toBeGreaterThan(3);
  for (const path of links) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await expect(page.locator("main")).toBeVisible();
      await expectAccessible(page);
    }
    await screenshot(page, `${prefix}${path.replaceAll("/", "-")}-phone`);
  }
}

test("the public pages are accessible", async ({ page }) => {
  for (const path of ["/", "/login", "/docs", "/verify/POL-NONE-2026-000000000000"]) {
    await page.goto(path);
    await expectAccessible(page);
  }
});

test("every partner page is accessible, at desktop and phone width", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, accounts().demoPartner);
  await everyNavPage(page, "partner");
  for (const path of ["/portal/consumers/new", "/portal/quote?product=ltix-stnd-1111", "/portal/claims/new", "/portal/financing/new", "/portal/password"]) {
    await page.goto(path);
    await expectAccessible(page);
  }
});

test("every administrator page is accessible, at desktop and phone width", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, accounts().operatorAdmin);
  await everyNavPage(page, "admin");
});
