/** Insurer bordereaux (docs/reporting.md): the operator picks a month and an insurer, reads the preview and downloads both files. */
import { readFile } from "node:fs/promises";
import ExcelJS from "exceljs";
import { accounts } from "./server";
import { expect, expectAccessible, screenshot, signIn, test } from "./support";

test("the operator picks a month and an insurer, sees the bordereaux and downloads them as CSV and XLSX", async ({ page }) => {
  await signIn(page, accounts().operatorAdmin);
  await page.getByRole("link", { name: "Insurer bordereaux" }).click();
  await expect(page.getByRole("heading", { name: "Insurer bordereaux" })).toBeVisible();
  const month = await page.getByLabel("Month").inputValue();
  expect(month).toMatch(/^\d{4}-\d\d$/);
  const monthInWords = (await page.getByLabel("Month").locator("option:checked").textContent())!;
  await page.getByLabel("Insurer").selectOption({ label: "Leadway Assurance" });
  await page.getByRole("button", { name: "Show bordereaux" }).click();

  await expect(page.getByRole("heading", { name: `Premium bordereau, Leadway Assurance, ${monthInWords}` })).toBeVisible();
  await expect(page.getByRole("heading", { name: `Claims bordereau, Leadway Assurance, ${monthInWords}` })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, "admin-reports");

  const premium = page.locator("#premium");
  const [csv] = await Promise.all([page.waitForEvent("download"), premium.getByRole("link", { name: "Download CSV" }).click()]);
  expect(csv.suggestedFilename()).toBe(`premium-bordereau-ldwy-${month}.csv`);
  const text = (await readFile((await csv.path())!, "utf8")).replace(/^\uFEFF/, "");
  expect(text.split("\r\n")[0]).toBe(
    "Partner,Policy reference,Policy number,Product,Insured,Cover start,Cover end,Transaction,Booked on,Gross premium (NGN),Commission (NGN),Net to insurer (NGN)",
  );
  expect(text.trimEnd().split("\r\n").at(-1)).toMatch(/^Total,/);

  const [xlsx] = await Promise.all([page.waitForEvent("download"), premium.getByRole("link", { name: "Download Excel (XLSX)" }).click()]);
  expect(xlsx.suggestedFilename()).toBe(`premium-bordereau-ldwy-${month}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await xlsx.path())!);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.getRow(1).getCell(12).value).toBe("Net to insurer (NGN)");
  expect(sheet.getRow(sheet.rowCount).getCell(1).value).toBe("Total");

  const [claims] = await Promise.all([page.waitForEvent("download"), page.locator("#claims").getByRole("link", { name: "Download Excel (XLSX)" }).click()]);
  expect(claims.suggestedFilename()).toBe(`claims-bordereau-ldwy-${month}.xlsx`);
});
