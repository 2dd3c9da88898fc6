/** Commissions and statements (docs/commissions.md): the operator sets a rate; a partner reads its month and downloads the PDF and the CSV. */
import { readFile } from "node:fs/promises";
import { accounts } from "./server";
import { command, expect, expectAccessible, screenshot, signIn, test } from "./support";

// A refused rate answers its page again with 400, as a refused form does.
test.use({ allowedBrowserErrors: [/admin\/commissions\/[^ ]+: Failed to load resource: the server responded with a status of 400/] });

test("the operator sets a product's commission rate and a partner's own, refused beside the field first", async ({ page }) => {
  await signIn(page, accounts().operatorAdmin);
  await page.getByRole("link", { name: "Commission rates" }).click();
  await expect(page.getByRole("heading", { name: "Commission rates" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "admin-commission-rates");
  // On a phone each product is a block of its own, its "Change" link in full view without scrolling sideways.
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 900 });
  const change = page.locator('a[href="/admin/commissions/mrnn-cmpr-1111"]');
  const box = await change.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  expect(await page.locator("table.stacked").evaluate((table) => table.scrollWidth <= table.clientWidth)).toBe(true);
  await screenshot(page, "admin-commission-rates-phone");
  if (desktop) await page.setViewportSize(desktop);
  await page.locator('a[href="/admin/commissions/mrnn-cmpr-1111"]').click();
  // The product's rate (the partner's form has a rate input too).
  const rate = page.locator("#f-rate");
  await rate.fill("12.345");
  await page.getByRole("button", { name: "Save rate" }).click();
  await expect(page.locator("#f-rate-error")).toContainText("at most two decimals");
  await page.locator("#f-rate").fill("12.5");
  await page.getByRole("button", { name: "Save rate" }).click();
  await expect(page.getByText("The rate is saved.")).toBeVisible();
  await expect(page.getByText("Now: 12.5 %.")).toBeVisible();
  await page.getByLabel("Partner").selectOption({ label: accounts().demoPartner.name });
  await page.getByLabel("Its rate (per cent of the premium)").fill("15");
  await page.getByRole("button", { name: "Save the partner's rate" }).click();
  await expect(page.getByText("The partner's rate is saved.")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${accounts().demoPartner.name}.*15 %`) })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "admin-commission-product");
});

test("a partner opens this month's statement and downloads it as PDF and CSV", async ({ page }) => {
  const partner = accounts().demoPartner;
  await signIn(page, partner);
  // Money on the live wallet: the sandbox provider pays a live top-up at once.
  await command(page, partner, "live", "wallet topup", { amount: 25000, reference: `stmt-${Date.now()}` });
  await page.getByRole("link", { name: "Statements" }).click();
  await expect(page.getByRole("heading", { name: "Monthly statement" })).toBeVisible();
  const month = await page.getByLabel("Month (Nigerian time)").getAttribute("max");
  expect(month).toMatch(/^\d{4}-\d\d$/);
  await page.getByLabel("Month (Nigerian time)").fill(month!);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`month=${month}`));
  await expect(page.getByRole("table", { name: "Wallet" }).getByRole("row", { name: /Top-ups/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Net due for the month" })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "portal-statement");

  const [pdf] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download PDF" }).click()]);
  expect(pdf.suggestedFilename()).toMatch(new RegExp(`^statement-.+-${month}\\.pdf$`));
  expect((await readFile((await pdf.path())!)).subarray(0, 5).toString()).toBe("%PDF-");

  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
  expect(csv.suggestedFilename()).toMatch(new RegExp(`^statement-.+-${month}\\.csv$`));
  const lines = (await readFile((await csv.path())!, "utf8")).replace(/^\uFEFF/, "").split("\r\n");
  expect(lines[0]!.startsWith(`Statement,${partner.name}`)).toBe(true);
  expect(lines.some((line) => line.startsWith("Wallet,Top-ups,"))).toBe(true);
  expect(lines.some((line) => line.startsWith("Net due,Net due,"))).toBe(true);
});
