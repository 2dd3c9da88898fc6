/**
 * Issue 38, item 4 — a complaint's path through the portal at desktop (1280×800) and phone (390×844)
 * width: the partner's staff file a customer's complaint with a document (a refusal first, beside its
 * field), the operator acknowledges it on the desk, adds an internal note and resolves it with
 * redress; the partner sees the outcome and downloads the resolution letter; the operator opens the
 * complaints report. Every new page is screenshotted (complaints-<step>-desktop|phone), axe-checked,
 * and nothing is wider than the screen.
 */
import type { Browser, Page } from "@playwright/test";
import { type Account, accounts } from "./server";
import { expect, expectAccessible, expectNoSidewaysScroll, PNG, screenshot, signIn, test } from "./support";

test.describe.configure({ mode: "serial" });
// The form's refusal is answered 400, as every refused form is.
test.use({ allowedBrowserErrors: [/\/portal\/complaints: Failed to load resource: the server responded with a status of 400/] });

const widths = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

async function signedIn(browser: Browser, viewport: { width: number; height: number }, account: Account): Promise<Page> {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signIn(page, account);
  return page;
}

/** Check the page as it is now and keep its screenshot. */
async function look(page: Page, step: string, width: number, widthName: string) {
  await expectAccessible(page);
  await expectNoSidewaysScroll(page, width);
  await screenshot(page, `complaints-${step}-${widthName}`);
}

for (const { name, width, height } of widths) {
  const viewport = { width, height };

  test(`a complaint filed by the partner, resolved by the operator with a letter (${name})`, async ({ page, browser }) => {
    test.setTimeout(300_000);
    const { demoPartner, operatorAdmin } = accounts();
    await page.setViewportSize(viewport);
    await signIn(page, demoPartner);

    // 1. The partner's staff file a complaint for a customer who holds no policy with them; first without a way to reach them.
    await page.goto("/portal/complaints");
    await look(page, "partner-list", width, name);
    await page.getByRole("link", { name: "File a complaint" }).click();
    await look(page, "form", width, name);
    const complainant = `Ngozi Eze ${crypto.randomUUID().slice(0, 6)}`;
    await page.getByLabel("Complainant's name").fill(complainant);
    await page.getByLabel("What the complaint is about").selectOption({ label: "Policy sale or mis-selling" });
    await page.getByLabel("The complaint", { exact: true }).fill("I was told the cover included theft; the leaflet says it does not.");
    await page.getByRole("button", { name: "File the complaint" }).click();
    await expect(page.locator(".field.has-error").first()).toBeVisible();
    await look(page, "form-refused", width, name);
    await page.getByLabel("Complainant's phone").fill("0803 123 4567");
    await page.getByLabel("Document 1").setInputFiles({ name: "leaflet.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "File the complaint" }).click();
    await expect(page.getByRole("heading", { name: /^Complaint CMP-/ })).toBeVisible();
    const complaintNo = (await page.getByRole("heading", { name: /^Complaint CMP-/ }).textContent())!.replace("Complaint", "").trim();
    await expect(page.getByText("Acknowledge by")).toBeVisible();
    await look(page, "partner-page", width, name);

    // 2. The operator acknowledges it on the desk, adds an internal note and resolves it with redress.
    const admin = await signedIn(browser, viewport, operatorAdmin);
    await admin.goto("/admin/complaints");
    await expect(admin.getByRole("link", { name: complaintNo })).toBeVisible();
    await look(admin, "desk", width, name);
    await admin.getByRole("link", { name: complaintNo }).click();
    await look(admin, "desk-page", width, name);
    await admin.getByRole("button", { name: "Acknowledge" }).click();
    await expect(admin.getByRole("status").filter({ hasText: "acknowledged" })).toBeVisible();
    await admin.getByLabel("Note (the partner does not see it)").fill("Checked the agent's leaflet: theft is not covered, the agent said otherwise.");
    await admin.getByRole("button", { name: "Add the note" }).click();
    await expect(admin.getByRole("status").filter({ hasText: "note was added" })).toBeVisible();
    await admin.getByLabel("Outcome").selectOption({ label: "Upheld" });
    await admin
      .getByLabel("What was found and what is done")
      .fill("The agent described the cover wrongly. We refund the premium and have retrained the agent.");
    await admin.getByLabel("Redress (₦)").fill("15,000");
    admin.once("dialog", (dialog) => dialog.accept());
    await admin.getByRole("button", { name: "Resolve and write the letter" }).click();
    await expect(admin.getByRole("status").filter({ hasText: "resolved" })).toBeVisible();
    await look(admin, "desk-resolved", width, name);
    await admin.goto("/admin/reports/complaints");
    await expect(admin.getByRole("heading", { name: "Complaints report" })).toBeVisible();
    await look(admin, "report", width, name);

    // 3. The partner sees the outcome, not the internal note, and downloads the letter.
    await page.reload();
    await expect(page.getByText("Upheld").first()).toBeVisible();
    await expect(page.getByText("Checked the agent's leaflet")).toHaveCount(0);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the resolution letter (PDF)" }).click()]);
    expect(download.suggestedFilename()).toBe(`complaint-resolution-${complaintNo}.pdf`);
    await look(page, "partner-resolved", width, name);
    await admin.context().close();
  });
}
