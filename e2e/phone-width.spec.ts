import type { Locator, Page } from "@playwright/test";
import { newImei } from "../test/support/fixtures";
import { accounts } from "./server";
import { command, expect, expectAccessible, expectNoSidewaysScroll, pendingMarinePolicy, screenshot, signIn, test, watDate } from "./support";

/**
 * Every page of both roles at phone width (issue 36): no page wider than a 390 px screen (nor than a
 * 1280 px one), tables as cards whose rows keep their action in view, the approvals queue's Approve
 * and Decline on screen, a new key's id and secret whole, and a refused form's problems brought into
 * view with the focus on them. The pages of the navigation, and the records behind them: a policy, a
 * consumer, a claim, a financing plan, a webhook endpoint, a policy waiting for approval, a month's
 * statement and the insurer bordereaux. A screenshot of each at both widths.
 */

test.describe.configure({ mode: "serial" });

// The refused form answers 400 on purpose, which Chromium logs as a failed load.
test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 400/] });

const widths = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
];

/** The records the pages show, made once through the JSON surface. */
interface Records {
  policy: string;
  consumer: string;
  plan: string;
  claim: string;
  pending: string;
  month: string;
}
let records: Records;

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { demoPartner } = accounts();
  // Test-mode records through the legacy key (another spec rotates the test key), then live ones.
  await command(page, demoPartner, "legacy", "set env_test");
  const consumer = await command(page, demoPartner, "legacy", "prfl entity", {
    class: "h",
    name: { first: "Adaeze", last: "Okonkwo-Williams" },
    phoneNo: "+2348051234567",
    eMail: `adaeze.${crypto.randomUUID().slice(0, 8)}@example.ng`,
  });
  const policy = await command(page, demoPartner, "legacy", `entt_${consumer.id}: insure`, {
    ctgry: "phnn",
    type: "flx1",
    pckg: "1111",
    id: crypto.randomUUID(),
    insrncDrtn: "1y",
    addtnlFact: { brand: "Samsung", model: "Galaxy A54", uIdnt: newImei() },
  });
  const inAWeek = new Date(Date.now() + 3_600_000 + 7 * 86_400_000).toISOString().slice(0, 10);
  const plan = await command(page, demoPartner, "legacy", "payment financeLoan", {
    policy: policy.id,
    downPayment: 1000,
    installments: 4,
    frequency: "weekly",
    firstDueDate: inAWeek,
  });
  const claim = await command(page, demoPartner, "legacy", "claim submit", {
    policy: policy.id,
    incidentDate: watDate(),
    description: "The screen cracked when the phone fell on a tiled floor at the market.",
    amount: 45000,
    reference: `phone-${crypto.randomUUID().slice(0, 8)}`,
  });
  // Live business for the bordereaux (a phone policy of AXA Mansard's) and one waiting for approval.
  const pending = await pendingMarinePolicy(page);
  await command(page, demoPartner, "live", `entt_${pending.consumerId}: insure`, {
    ctgry: "phnn",
    type: "flx1",
    pckg: "1111",
    id: crypto.randomUUID(),
    insrncDrtn: "1y",
    addtnlFact: { brand: "Tecno", model: "Camon 30", uIdnt: newImei() },
  });
  records = { policy: policy.id, consumer: consumer.id, plan: plan.planNo, claim: claim.claimNo, pending: pending.reference, month: watDate().slice(0, 7) };
  await context.close();
});

/** The main navigation's links, as the signed-in person sees them. */
const navLinks = (page: Page) =>
  page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link")
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname + (a as HTMLAnchorElement).search));

/** No table's box scrolls sideways: on a phone every table is a list of cards. */
async function expectTablesFit(page: Page) {
  // portal.js names every table's cells once the page has loaded (tables without headings are left as they are).
  await page.waitForFunction(
    () => Array.from(document.querySelectorAll("table")).every((t) => t.classList.contains("stacked") || !t.querySelector("thead th")),
    undefined,
    { timeout: 10_000 },
  );
  const wide = await page
    .locator(".table-box")
    .evaluateAll((boxes) => boxes.filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => box.querySelector("caption, th")?.textContent?.trim()));
  expect(wide, "tables that scroll sideways").toEqual([]);
}

/** The element is entirely within the screen's width (and, scrolled to, in view). */
async function expectOnScreen(locator: Locator, width: number) {
  // Scrolled to the middle of the screen: scrolled only "if needed", an element can stop a fraction of a pixel short of the edge.
  await locator.evaluate((element) => element.scrollIntoView({ block: "center" }));
  const box = await locator.boundingBox();
  expect(box, "on the page").not.toBeNull();
  expect(box!.x, "left edge").toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, "right edge").toBeLessThanOrEqual(width);
  await expect(locator).toBeInViewport({ ratio: 1 });
}

/**
 * The page at both widths: nothing wider than the screen, a screenshot of each; at phone width no
 * table that scrolls sideways (one that is checked may), and axe-core's verdict on the cards.
 */
async function checkAtBothWidths(page: Page, path: string, name: string, options: { tablesMayScrollOnDesktop?: boolean } = {}) {
  for (const { name: widthName, width } of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    await expect(page.locator("main")).toBeVisible();
    await expectNoSidewaysScroll(page, width);
    if (width < 1280 || !options.tablesMayScrollOnDesktop) await expectTablesFit(page);
    if (width < 1280) await expectAccessible(page);
    await screenshot(page, `width-${name}-${widthName}`);
  }
}

const screenshotName = (prefix: string, path: string) => `${prefix}${path.replace(/\?.*/, "").replaceAll("/", "-")}`;

for (const [role, account, prefix] of [
  ["partner", () => accounts().demoPartner, "partner"],
  ["administrator", () => accounts().operatorAdmin, "admin"],
] as const)
  test(`every page of the ${role}'s navigation fits a phone and a desktop`, async ({ page }) => {
    test.setTimeout(900_000);
    await signIn(page, account());
    const links = await navLinks(page);
    expect(links.length).toBeGreaterThan(5);
    for (const path of links) await checkAtBothWidths(page, path, screenshotName(prefix, path));
  });

test("a partner's records fit a phone: policy, consumer, claim, financing plan, statement, webhook endpoint", async ({ page }) => {
  test.setTimeout(600_000);
  await signIn(page, accounts().demoPartner);
  await checkAtBothWidths(page, `/portal/policies/${records.policy}`, "partner-policy");
  await checkAtBothWidths(page, `/portal/consumers/${records.consumer}`, "partner-consumer");
  await checkAtBothWidths(page, `/portal/claims/${records.claim}`, "partner-claim");
  await checkAtBothWidths(page, `/portal/financing/${records.plan}`, "partner-financing-plan");
  await checkAtBothWidths(page, `/portal/statements?month=${records.month}`, "partner-statement");

  // An endpoint with a long address: its page's title wraps rather than widening the page.
  const url = `http://127.0.0.1:9/hooks/partner-systems/insurance/policy-status-changes/${crypto.randomUUID()}`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/portal/webhooks");
  await page.getByLabel("URL", { exact: true }).fill(url);
  await page.getByRole("button", { name: "Register endpoint" }).click();
  await page.getByRole("link", { name: url }).click();
  await checkAtBothWidths(page, new URL(page.url()).pathname, "partner-webhook-endpoint");
});

test("the operator's records fit a phone; Approve and Decline of a waiting policy are on screen; the bordereau's money comes first", async ({ page }) => {
  test.setTimeout(600_000);
  const { demoPartner, operatorAdmin } = accounts();
  await signIn(page, operatorAdmin);
  for (const { name, width } of widths) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin");
    const row = page.getByRole("row", { name: new RegExp(records.pending) });
    // The buttons' names may grow (the amount they decide on): they start with the action.
    for (const action of [/^Approve/, /^Decline/]) await expectOnScreen(row.getByRole("button", { name: action }), width);
    await expectOnScreen(row.getByRole("link", { name: "Review" }), width);
    await expectNoSidewaysScroll(page, width);
    await screenshot(page, `width-admin-approvals-pending-${name}`);
  }
  const desk = await page
    .getByRole("row", { name: new RegExp(records.pending) })
    .getByRole("link", { name: "Review" })
    .getAttribute("href");
  await checkAtBothWidths(page, desk!, "admin-review-desk");
  await checkAtBothWidths(page, `/admin/consumers/${records.consumer}`, "admin-consumer");
  await checkAtBothWidths(page, `/admin/claims/${records.claim}`, "admin-claim");
  await checkAtBothWidths(page, `/admin/financing/${records.plan}`, "admin-financing-plan");
  await checkAtBothWidths(page, `/admin/statements?partner=${demoPartner.partnerId}&month=${records.month}`, "admin-statement");

  // The bordereaux are wider than a desktop: they scroll in their own box, the amounts first and in view.
  const reports = `/admin/reports?month=${records.month}&insurer=axmi`;
  await checkAtBothWidths(page, reports, "admin-bordereaux", { tablesMayScrollOnDesktop: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(reports);
  const premium = page.getByRole("table", { name: /^Premium bordereau/ });
  await expect(premium.getByRole("row")).not.toHaveCount(0);
  await expectOnScreen(premium.getByRole("columnheader", { name: "Net to insurer (NGN)" }), 1280);
});

test("a new key's id and secret are whole on a phone, each selectable in one piece", async ({ page, browser }) => {
  // A partner of its own: rotating the demo partner's keys would break the other specs' requests.
  await signIn(page, accounts().operatorAdmin);
  await page.goto("/admin/partners");
  await page.getByLabel("Partner name", { exact: true }).fill("Phone Width Traders Ltd");
  await page.getByLabel("Owner's e-mail", { exact: true }).fill(`owner.${crypto.randomUUID().slice(0, 8)}@phone-width.ng`);
  await page.getByRole("button", { name: "Create partner" }).click();
  const [email, password] = (await page.locator(".secret").last().textContent())!.split(" / ");

  const owner = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
  owner.on("dialog", (dialog) => void dialog.accept());
  await signIn(owner, { portal: { email: email!.trim(), password: password!.trim() } });
  await owner.goto("/portal/keys");
  await owner.getByRole("button", { name: "Rotate the test key" }).click();
  for (const shown of [owner.locator("#new-key-id"), owner.locator("#new-key")]) {
    await expectOnScreen(shown, 390);
    // Its column is not squeezed to a sliver (it has the width of the notice), and nothing of it is cut off.
    expect((await shown.locator("xpath=ancestor::dd").boundingBox())!.width).toBeGreaterThan(300);
    expect(await shown.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await expect(shown).toHaveCSS("user-select", "all");
  }
  expect((await owner.locator("#new-key").textContent())!.trim()).toHaveLength(44);
  await expectNoSidewaysScroll(owner, 390);
  await expectTablesFit(owner);
  await expectAccessible(owner);
  await screenshot(owner, "width-partner-keys-rotated-phone");
});

test("a refused form on a phone: a summary at its top, in view, linking to each field, and the focus on the problem", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await signIn(page, accounts().demoPartner);
  await page.goto("/portal/consumers/new");
  await page.getByLabel("First name", { exact: true }).fill("Tunde");
  await page.getByLabel("Phone number", { exact: true }).fill("12");
  await page.getByLabel("E-mail", { exact: true }).fill("not an address");
  // The button is far down the form: the problems are well above the screen when it is pressed.
  await page.getByRole("button", { name: "Register" }).click();
  const summary = page.locator(".problem-summary");
  await expect(summary).toBeInViewport();
  await expect(summary).toContainText("Check these fields:");
  // The focus is on the first refused field when it is in view too, else on the summary: either way, in view.
  const focused = page.locator(":focus");
  await expect(focused).toBeInViewport();
  expect(await focused.evaluate((element) => element.matches('.problem-summary, [aria-invalid="true"]'))).toBe(true);
  await screenshot(page, "width-refused-form-phone");
  // The summary's links lead to the fields, the focus with them.
  await expect(summary.getByRole("link", { name: "Phone number" })).toBeVisible();
  await summary.getByRole("link", { name: "E-mail" }).click();
  await expect(page.getByLabel("E-mail", { exact: true })).toBeFocused();
  await expect(page.getByLabel("E-mail", { exact: true })).toBeInViewport();
  await expectAccessible(page);
});
