/**
 * Issue 37, item 7 — the regulator's view (docs/reporting.md, "The regulator's view"): the operator
 * opens "Claims for the regulator" from the navigation, chooses test business, reads the charts and
 * their tables at 1280 and 390 px (axe-checked, nothing wider than the screen, screenshotted),
 * downloads a table as CSV, and sees a refused period beside its field.
 */
import { readFile } from "node:fs/promises";
import { accounts } from "./server";
import { command, expect, expectAccessible, expectNoSidewaysScroll, screenshot, signIn, test, watDate } from "./support";

test.describe.configure({ mode: "serial" });

// The refused period answers 400 on purpose, which Chromium logs as a failed load.
test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 400/] });

const widths = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
] as const;

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { demoPartner, operatorAdmin } = accounts();
  // Test business through the legacy key (another spec rotates the test key). Each claim on a vehicle
  // and insured of its own: the fraud signals count earlier claims by the same claimant or vehicle, and
  // would send a decision to a second administrator.
  await command(page, demoPartner, "legacy", "set env_test");
  const submit = async (description: string) => {
    const consumer = await command(page, demoPartner, "legacy", "prfl entity", {
      type: "s",
      class: "h",
      name: { first: "Chidinma", last: "Okeke" },
      gender: "f",
      dob: { date: "1988-07-14" },
      phoneNo: `+234807${digits(7)}`,
      eMail: `chidinma.${crypto.randomUUID().slice(0, 8)}@example.ng`,
      addrss: { addrss: "12 Adeola Odeku Street, Victoria Island" },
    });
    const policy = await command(page, demoPartner, "legacy", `entt_${consumer.id}: insure`, {
      ctgry: "vhcl",
      type: "tprt",
      pckg: "1111",
      id: crypto.randomUUID(),
      insrncDrtn: "1y",
      addtnlFact: {
        brand: "Honda",
        model: "Accord",
        year: "2018",
        chsssId: `1HGCV1F30JA${digits(6)}`,
        engineId: `K24W${digits(7)}`,
        rgstrtId: `ABJ${digits(3)}KT`,
      },
    });
    return command(page, demoPartner, "legacy", "claim submit", { policy: policy.id, incidentDate: watDate(), description, amount: 60_000 });
  };
  const review = (claimNo: string, status: string, more: Record<string, unknown> = {}) =>
    command(page, operatorAdmin, "legacy", "claim review", { claimNo, status, ...more });
  await submit("Rear bumper dented in a car park at Ikeja City Mall");
  const paid = await submit("Windscreen cracked by a stone on the Lagos–Ibadan expressway");
  await review(paid.claimNo, "in_review");
  await review(paid.claimNo, "approved");
  // Paid the only way a claim is: the insured's account, the voucher accepted, the sandbox's transfer.
  const given = await command(page, demoPartner, "legacy", "claim payee", { claimNo: paid.claimNo, bankCode: "058", accountNumber: "0123456780" });
  await command(page, demoPartner, "legacy", "claim accept", { claimNo: paid.claimNo, version: given.voucher.version });
  const rejected = await submit("Engine failure after driving through a flooded road");
  await review(rejected.claimNo, "in_review");
  await review(rejected.claimNo, "rejected", { rejectionReason: "not_covered", note: "Mechanical breakdown is not covered by third-party cover" });
  await context.close();
});

test("the operator reads the claims for the regulator at both widths and downloads the settlement times as CSV", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, accounts().operatorAdmin);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Claims for the regulator" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Claims for the regulator" })).toBeVisible();
  await expect(page.getByText(/^Live business of every partner\./)).toBeVisible();
  await page.getByLabel("Mode", { exact: true }).selectOption({ label: "Test business" });
  await page.getByRole("button", { name: "Show the figures" }).click();
  await expect(page.getByText(/^Test business of every partner\./)).toBeVisible();
  const address = page.url();
  expect(new URL(address).searchParams.get("mode")).toBe("test");

  for (const { name, width } of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(address);
    for (const heading of ["Open claims by age", "Settlement times", "Rejections"])
      await expect(page.getByRole("heading", { level: 2, name: heading })).toBeVisible();
    await expect(page.getByRole("table", { name: /^Settlement times by product/ }).getByRole("rowheader", { name: "Vehicle, third-party" })).toBeVisible();
    await expect(page.getByRole("img", { name: /^Rejections by reason/ })).toBeVisible();
    await expect(
      page
        .getByRole("table", { name: "Every product's rejections by reason" })
        .getByRole("row", { name: /^The loss is not covered by the terms of the policy (Rejections )?[1-9]/ }),
    ).toBeVisible();
    await expectNoSidewaysScroll(page, width);
    await expectAccessible(page);
    await screenshot(page, `claims-regulator-${name}`);
  }

  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the settlement times (CSV)" }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^claims-settlement-times-test-\d{4}-\d{2}-01-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await csv.path())!, "utf8"))
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe(
    "Product,Claims paid,Median (days),90th percentile (days),Median (hours),90th percentile (hours),Paid after the deadline,Late interest (NGN)",
  );
  expect(lines.some((line) => line.startsWith('"Vehicle, third-party",'))).toBe(true);
  expect(lines.at(-1)).toMatch(/^All products,\d+,/);
});

test("a period that ends before it starts is refused beside its field, at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await signIn(page, accounts().operatorAdmin);
  await page.goto("/admin/reports/regulator?from=2026-06-30&to=2026-04-01");
  await expect(page.locator("#f-to-error")).toHaveText(/To must not be before From/);
  await expect(page.getByRole("heading", { level: 2, name: "Open claims by age" })).toHaveCount(0);
  await expectNoSidewaysScroll(page, 390);
  await expectAccessible(page);
  await screenshot(page, "claims-regulator-refused-phone");
});
