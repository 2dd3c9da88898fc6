import type { Locator, Page } from "@playwright/test";
import { accounts } from "./server";
import { command, expect, expectAccessible, screenshot, signIn, test, VEHICLE_FORM } from "./support";

/**
 * The small details of issue 36 that a browser shows, at desktop and phone width: a charge's "−"
 * never wraps away from its amount, a plate typed with spaces is accepted at issuance, and the
 * cancel confirmation says the policy can be reinstated and who is told.
 */

test.describe.configure({ mode: "serial" });

const widths = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
];

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** How many lines a cell's text takes as drawn. */
const linesOf = (cell: Locator) =>
  cell.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
  });

/** A consumer of the demo partner for a device policy, and a valid IMEI of its own. */
async function deviceConsumer(page: Page, label: "live" | "legacy") {
  const consumer = await command(page, accounts().demoPartner, label, "prfl entity", {
    class: "h",
    name: { first: "Bisi", last: "Adeyemi" },
    phoneNo: "+2348021112233",
    eMail: `bisi.${crypto.randomUUID().slice(0, 8)}@example.ng`,
  });
  const body = `35${String(Math.floor(Math.random() * 1e12)).padStart(12, "0")}`;
  const sum = [...body].reverse().reduce((acc, ch, i) => acc + (i % 2 === 0 ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][Number(ch)]! : Number(ch)), 0);
  return { consumer: consumer.id as string, imei: body + String((10 - (sum % 10)) % 10) };
}

test("a charge on the statement keeps its minus sign with its amount, even squeezed to the narrowest", async ({ page }) => {
  const { demoPartner } = accounts();
  // A live premium this month: the statement's wallet part shows it as a charge, "−₦7,200.00".
  await command(page, demoPartner, "live", "wallet topup", { amount: 25000, reference: `details-${Date.now()}` });
  const { consumer, imei } = await deviceConsumer(page, "live");
  await command(page, demoPartner, "live", `entt_${consumer}: insure`, {
    ctgry: "phnn",
    type: "flx1",
    pckg: "1111",
    id: crypto.randomUUID(),
    insrncDrtn: "1y",
    addtnlFact: { brand: "Tecno", model: "Camon 30", uIdnt: imei },
  });
  await signIn(page, demoPartner);
  for (const { name, width } of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/portal/statements");
    const month = await page.getByLabel("Month (Nigerian time)").getAttribute("max");
    await page.getByLabel("Month (Nigerian time)").fill(month!);
    await page.getByRole("button", { name: "Show" }).click();
    const charged = page
      .getByRole("table", { name: "Wallet" })
      .getByRole("row", { name: /Premiums charged/ })
      .locator("td.num");
    await expect(charged).toHaveText(/^−\u2060₦[\d,]+\.\d\d$/);
    expect(await linesOf(charged)).toBe(1);
    await expectAccessible(page);
    await screenshot(page, `details-statement-${name}`);
    // However narrow its column, the sign stays on the amount's line (the word joiner forbids a break there).
    await charged.evaluate((td) => {
      (td as HTMLElement).style.width = "1px";
      (td as HTMLElement).style.maxWidth = "1px";
    });
    expect(await linesOf(charged)).toBe(1);
  }
});

for (const { name, width } of widths)
  test(`a plate typed with spaces is accepted at issuance, and the cancel confirmation says it can be reinstated (${name})`, async ({ page }) => {
    const { demoPartner } = accounts();
    await page.setViewportSize({ width, height: 900 });
    // The portal issues in the account's mode: test, like the consumer.
    await command(page, demoPartner, "legacy", "set env_test");
    const consumer = await command(page, demoPartner, "legacy", "prfl entity", {
      type: "s",
      class: "h",
      name: { first: "Femi", last: "Adebayo" },
      gender: "m",
      dob: { date: "1984-03-09" },
      phoneNo: "+2348091112233",
      eMail: `femi.${crypto.randomUUID().slice(0, 8)}@example.ng`,
      addrss: { addrss: "7 Broad Street, Lagos" },
    });
    await signIn(page, demoPartner);
    await page.goto(`/portal/quote?consumer=${consumer.id}`);
    await page.getByLabel("Product", { exact: true }).selectOption("vhcl-tprt-1111");
    await page.getByLabel("Cover duration", { exact: true }).selectOption("1y");
    for (const [label, value] of Object.entries({ ...VEHICLE_FORM, "Registration plate": "lnd 123 ab" }))
      await page.getByLabel(label, { exact: true }).fill(value);
    await expect(page.getByText("spaces and hyphens do not matter")).toBeVisible();
    await page.getByRole("button", { name: "Issue policy" }).click();
    await page.waitForURL(/\/portal\/policies\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("(");
    await expect(page.locator("main dl")).toContainText("LND123AB");
    await expect(page.locator("main dl")).toContainText("Cover period");
    expect(await pageWidth(page)).toBeLessThanOrEqual(width);

    let asked = "";
    page.on("dialog", (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page.getByRole("link", { name: "Cancel the policy" }).click();
    await page.getByLabel("Reason", { exact: true }).selectOption("insured_request");
    await page.getByRole("button", { name: "Cancel the policy" }).click();
    await expect.poll(() => asked).toContain("your systems are told at once");
    expect(asked).toContain("It can be reinstated within 30 days");
    expect(asked).not.toContain("cannot be undone");
    await expectAccessible(page);
    await screenshot(page, `details-cancel-${name}`);
  });
