/**
 * Issue 37, the clock: the operator's claims desk opens with what is due first, a claim's page says
 * where its deadlines stand, and the operator keeps the public holidays the working days skip. At
 * 1280 and 390 px, axe-checked, screenshotted.
 */
import { accounts } from "./server";
import { command, expect, expectAccessible, expectNoSidewaysScroll, screenshot, signIn, test, watDate } from "./support";

test.describe.configure({ mode: "serial" });

// The repeated holiday answers 409 on purpose, which Chromium logs as a failed load.
test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 409/] });

const widths = [
  { name: "desktop", width: 1280, holiday: "2031-03-02" },
  { name: "phone", width: 390, holiday: "2031-03-03" },
] as const;

for (const { name, width, holiday } of widths) {
  test(`the claims desk shows what is due first, a claim its deadlines, and the operator keeps the public holidays (${name})`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const { demoPartner, operatorAdmin } = accounts();
    await command(page, demoPartner, "legacy", "set env_test");
    const consumer = await command(page, demoPartner, "legacy", "prfl entity", {
      type: "s",
      class: "h",
      name: { first: "Ngozi", last: "Eze" },
      gender: "f",
      dob: { date: "1990-02-11" },
      phoneNo: "+2348061234567",
      eMail: `ngozi.${crypto.randomUUID().slice(0, 8)}@example.ng`,
      addrss: { addrss: "3 Awolowo Road, Ikoyi" },
    });
    const policy = await command(page, demoPartner, "legacy", `entt_${consumer.id}: insure`, {
      ctgry: "vhcl",
      type: "tprt",
      pckg: "1111",
      id: crypto.randomUUID(),
      insrncDrtn: "1y",
      addtnlFact: {
        brand: "Toyota",
        model: "Camry",
        year: "2019",
        chsssId: "4T1B11HK5KU123456",
        engineId: "2AR7654321",
        rgstrtId: `LND${String(Math.floor(Math.random() * 900) + 100)}AB`,
      },
    });
    const claim = await command(page, demoPartner, "legacy", "claim submit", {
      policy: policy.id,
      incidentDate: watDate(),
      description: "Side mirror broken in traffic on Third Mainland Bridge",
      amount: 40_000,
    });
    expect(claim.settlementDue).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    await signIn(page, operatorAdmin);
    await page.goto("/admin/claims");
    await expect(page.getByRole("heading", { name: /^Due first: \d+ open claims? overdue or due within 7 days$/ })).toBeVisible();
    await expect(page.locator("tr", { hasText: claim.claimNo }).first()).toContainText("60 days left");
    await expectAccessible(page);
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `claims-due-first-${name}`);

    await page.goto(`/admin/claims/${claim.claimNo}`);
    await expect(page.locator("#claim dl")).toContainText(/Settle by\s*\d{1,2} [A-Z][a-z]{2} \d{4}: 60 days left/);
    await screenshot(page, `claim-deadlines-${name}`);

    await page.goto("/admin/holidays");
    await expect(page.getByRole("heading", { name: "Public holidays" })).toBeVisible();
    await page.getByLabel("Date", { exact: true }).fill(holiday);
    await page.getByLabel("Holiday", { exact: true }).fill("Eid-el-Fitr holiday");
    await page.getByRole("button", { name: "Add the holiday" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Eid-el-Fitr holiday is a public holiday." })).toBeVisible();
    const row = page.locator("tr", { hasText: "Eid-el-Fitr holiday" }).filter({ hasText: "2031" });
    await expect(row).toHaveCount(1);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `public-holidays-${name}`);

    // The same day again is refused beside the date.
    await page.getByLabel("Date", { exact: true }).fill(holiday);
    await page.getByLabel("Holiday", { exact: true }).fill("Eid-el-Fitr holiday");
    await page.getByRole("button", { name: "Add the holiday" }).click();
    await expect(page.getByLabel("Date", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#f-day-error")).toContainText("is already a public holiday");

    page.once("dialog", (dialog) => dialog.accept());
    await row.getByRole("button", { name: "Remove" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Eid-el-Fitr holiday is no longer a public holiday." })).toBeVisible();
  });
}
