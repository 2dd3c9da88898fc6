/** Dashboard charts (issue 17): SVG drawn on the server, a table under each, readable on a phone. */
import type { Page } from "@playwright/test";
import { accounts } from "./server";
import { command, expect, expectAccessible, screenshot, signIn, test } from "./support";

test.describe.configure({ mode: "serial" });

/** A valid, unused IMEI (Luhn check digit): each phone can be insured once. */
function imei(): string {
  const body = `35693803${String(Date.now()).slice(-6)}`;
  const sum = [...body].reverse().reduce((total, ch, i) => {
    const d = Number(ch) * (i % 2 === 0 ? 2 : 1);
    return total + (d > 9 ? d - 9 : d);
  }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test("a partner reads the dashboard's charts at desktop and phone width and opens a chart's table", async ({ page }) => {
  const { demoPartner } = accounts();
  await signIn(page, demoPartner);
  await command(page, demoPartner, "legacy", "set env_test");
  // One policy issued today, so the premium charts have a bar.
  const consumer = await command(page, demoPartner, "test", "prfl entity", {
    class: "h",
    name: { first: "Kemi", last: "Bello" },
    phoneNo: "+2348051234567",
    eMail: `kemi.${Date.now()}@example.ng`,
  });
  await command(page, demoPartner, "test", `entt_${consumer.id}: insure`, {
    ctgry: "phnn",
    type: "flx1",
    pckg: "1111",
    id: crypto.randomUUID(),
    insrncDrtn: "1y",
    addtnlFact: { brand: "Tecno", model: "Camon 20", uIdnt: imei() },
  });

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/portal");
    const premiumByDay = page.getByRole("figure", { name: "Premium by day" });
    await expect(premiumByDay.getByRole("img")).toBeVisible();
    await expect(page.getByRole("figure", { name: "Policies by product" }).getByRole("img")).toBeVisible();
    await expect(page.getByRole("figure", { name: "Policies by status" }).getByRole("img")).toBeVisible();
    await expect(page.getByRole("figure", { name: "Claims ratio by month" })).toBeVisible();
    await expect(page.getByRole("figure", { name: "Wallet balance" })).toBeVisible();
    // The picture fits the screen: no sideways scrolling, the chart no wider than its box.
    expect(await pageWidth(page), `page width at ${width} px`).toBeLessThanOrEqual(width);
    const box = await premiumByDay.getByRole("img").boundingBox();
    expect(box!.width).toBeLessThanOrEqual(width);
    expect(box!.height).toBeGreaterThan(60);
    // The axis text keeps a readable size at any width (the picture is not scaled down as a whole).
    const axisText = await premiumByDay.locator("text.chart-axis").last().boundingBox();
    expect(axisText!.height, `axis text height at ${width} px`).toBeGreaterThanOrEqual(11);

    // The table alternative opens and holds today's premium in naira.
    const table = premiumByDay.getByRole("table", { name: "Premium by day" });
    await expect(table).toBeHidden();
    await premiumByDay.getByText("Show as a table").click();
    await expect(table).toBeVisible();
    await expect(table.getByRole("row").last()).toContainText("₦");
    expect(await pageWidth(page), `page width at ${width} px with a table open`).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await screenshot(page, `charts-partner-${width}`);
  }
});

test("the operator's dashboard charts every partner's live business", async ({ page }) => {
  const { operatorAdmin } = accounts();
  await signIn(page, operatorAdmin);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/dashboard");
    for (const title of ["Premium by day", "Premium by month", "Policies by product", "Policies by status", "Claims ratio by month"])
      await expect(page.getByRole("figure", { name: title })).toBeVisible();
    // Live business only, and no partner's wallet: the operator's page has no wallet chart.
    await expect(page.getByRole("figure", { name: "Wallet balance" })).toHaveCount(0);
    expect(await pageWidth(page), `page width at ${width} px`).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await screenshot(page, `charts-admin-${width}`);
  }
});
