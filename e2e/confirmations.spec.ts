/**
 * Issue 36, "confirming what matters": suspending a partner, issuing a live policy, an
 * administrator's manual transfer confirmation and the second administrator's approval each stop at
 * a confirmation naming whom and how much (views/portal/confirm.tsx), at desktop and phone width.
 */
import type { Page } from "@playwright/test";
import { accounts } from "./server";
import { command, expect, expectAccessible, screenshot, signIn, test, VEHICLE_FORM } from "./support";

test.describe.configure({ mode: "serial" });

const WIDTHS = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
] as const;

const tag = () => crypto.randomUUID().slice(0, 8).toUpperCase();

/** The confirmation on screen: its question focused, nothing wider than the window, accessible; kept as a screenshot. */
async function expectStep(page: Page, question: string | RegExp, width: number, name: string) {
  const heading = page.getByRole("heading", { name: question });
  await expect(heading).toBeVisible();
  await expect(page.locator(".confirm-step [autofocus]")).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await expectAccessible(page);
  await screenshot(page, name);
}

for (const { name, width } of WIDTHS)
  test(`suspending a partner asks first, naming the partner and what stops; reinstating too (${name})`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, accounts().operatorAdmin);
    await page.goto("/admin/partners");
    const partner = `Confirm Lender ${tag()}`;
    await page.getByLabel("Partner name", { exact: true }).fill(partner);
    await page.getByRole("button", { name: "Create partner" }).click();
    await expect(page.getByRole("status").filter({ hasText: `${partner} was created` })).toBeVisible();
    const row = () => page.getByRole("row").filter({ hasText: partner });

    await row()
      .getByRole("button", { name: `Suspend… ${partner}` })
      .click();
    await expectStep(page, `Suspend ${partner}?`, width, `confirm-suspend-${name}`);
    await expect(page.locator("main")).toContainText(`Every API key of ${partner} is refused from its next request`);
    await expect(page.locator("main")).toContainText("Their staff are signed out of the portal at once");
    // Going back changes nothing.
    await page.getByRole("link", { name: `Keep ${partner} active` }).click();
    await expect(row()).toContainText("Active");
    await expect(row()).not.toContainText("Suspended");

    await row()
      .getByRole("button", { name: `Suspend… ${partner}` })
      .click();
    await page.getByRole("button", { name: `Suspend ${partner}`, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: `${partner} is suspended: its keys are refused and its staff are signed out.` })).toBeVisible();
    await expect(row()).toContainText("Suspended");
    await screenshot(page, `confirm-suspended-${name}`);

    await row()
      .getByRole("button", { name: `Reinstate… ${partner}` })
      .click();
    await expectStep(page, `Reinstate ${partner}?`, width, `confirm-reinstate-${name}`);
    await page.getByRole("button", { name: `Reinstate ${partner}`, exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: `${partner} is reinstated` })).toBeVisible();
    await expect(row()).not.toContainText("Suspended");
  });

for (const { name, width } of WIDTHS)
  test(`a live policy is issued only from its confirmation, which names the product, the insured and the premium (${name})`, async ({ page }) => {
    const { demoPartner } = accounts();
    await page.setViewportSize({ width, height: 900 });
    await command(page, demoPartner, "legacy", "set env_live");
    try {
      await command(page, demoPartner, "legacy", "wallet topup", { amount: 100_000, reference: `e2e-confirm-${tag()}` });
      const consumer = await command(page, demoPartner, "legacy", "prfl entity", {
        type: "s",
        class: "h",
        name: { first: "Kemi", last: "Adebayo" },
        gender: "f",
        dob: { date: "1990-04-12" },
        phoneNo: "+2348039998877",
        eMail: `kemi.${crypto.randomUUID().slice(0, 8)}@example.ng`,
        addrss: { addrss: "12 Allen Avenue, Ikeja, Lagos" },
      });
      await signIn(page, demoPartner);
      await page.goto(`/portal/quote?consumer=${consumer.id}`);
      await page.getByLabel("Product", { exact: true }).selectOption("vhcl-tprt-1111");
      await page.getByLabel("Cover duration", { exact: true }).selectOption("1y");
      // A plate of its own per run of the test: the vehicle is insured once per width.
      const vehicle = { ...VEHICLE_FORM, "Registration plate": `KJA${100 + Math.floor(Math.random() * 900)}AB` };
      for (const [label, value] of Object.entries(vehicle)) await page.getByLabel(label, { exact: true }).fill(value);
      await expect(page.locator("#premium")).toContainText("₦");
      const premium = (await page.locator("#premium strong").textContent())!.trim();
      await page.getByRole("button", { name: "Issue policy" }).click();

      await expectStep(page, "Issue a live policy for Kemi Adebayo?", width, `confirm-issue-${name}`);
      const facts = page.locator(".confirm-step dl");
      await expect(facts).toContainText("Vehicle");
      await expect(facts).toContainText("Kemi Adebayo");
      await expect(facts).toContainText(premium);
      await expect(page.locator(".confirm-step")).toContainText(`${premium} is taken from your wallet now`);
      // Changing the details goes back to the form with what was typed; the confirmation comes again.
      await page.getByRole("button", { name: "Change the details" }).click();
      await expect(page.getByLabel("Registration plate", { exact: true })).toHaveValue(vehicle["Registration plate"]);
      await page.getByRole("button", { name: "Issue policy" }).click();
      await page.getByRole("button", { name: `Issue and pay ${premium}` }).click();
      await page.waitForURL(/\/portal\/policies\/[0-9a-f-]{36}$/);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("(");
      await expect(page.locator("#policy-status")).toContainText(/Pending|Approved/);
    } finally {
      await command(page, demoPartner, "legacy", "set env_test");
    }
  });

for (const { name, width } of WIDTHS)
  test(`an administrator's manual confirmation and the second administrator's approval name the partner and the amount (${name})`, async ({
    page,
    browser,
  }) => {
    const { demoPartner, operatorAdmin, secondAdmin } = accounts();
    await page.setViewportSize({ width, height: 900 });
    // ₦1,500,000 is above the four-eyes threshold (₦1,000,000), ₦20,000 below.
    const small = `E2E-${tag()}-unpaid`;
    const large = `E2E-${tag()}-unpaid`;
    await command(page, demoPartner, "live", "wallet topup", { amount: 20_000, reference: small });
    await command(page, demoPartner, "live", "wallet topup", { amount: 1_500_000, reference: large });
    await signIn(page, operatorAdmin);

    const confirmTransfer = async (reference: string, amount: string) => {
      await page.goto("/admin/fundings");
      await page.locator("article", { hasText: reference }).getByRole("link", { name: "Confirm a bank transfer" }).click();
      const card = page.locator("article", { hasText: reference });
      await card.getByLabel("Bank reference", { exact: true }).fill(`NIP${tag()}${tag()}`);
      await card.getByLabel("Amount received in naira", { exact: true }).fill(amount);
      await card.getByRole("button", { name: "Confirm a bank transfer" }).click();
      return card;
    };

    let card = await confirmTransfer(small, "20,000");
    await expectStep(page, `Confirm ₦20,000.00 received from ${demoPartner.name}?`, width, `confirm-funding-${name}`);
    // Going back credits nothing.
    await card.getByRole("link", { name: "Go back without crediting" }).click();
    await expect(page.locator("article", { hasText: small })).toContainText("Waiting for payment");
    card = await confirmTransfer(small, "20,000");
    await card.getByRole("button", { name: `Credit ₦20,000.00 to ${demoPartner.name}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "Confirmed: ₦20,000.00 is credited" })).toBeVisible();

    card = await confirmTransfer(large, "1,500,000");
    await expectStep(page, `Confirm ₦1,500,000.00 received from ${demoPartner.name}?`, width, `confirm-funding-four-eyes-${name}`);
    await expect(card).toContainText("from ₦1,000,000.00 in all, it waits for a second administrator's approval");
    await card.getByRole("button", { name: `Credit ₦1,500,000.00 to ${demoPartner.name}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "waits for a second administrator" })).toBeVisible();

    const second = await (await browser.newContext({ viewport: { width, height: 900 } })).newPage();
    await signIn(second, secondAdmin);
    await second.goto("/admin/fundings");
    const waiting = second.locator("article", { hasText: large });
    await expect(waiting).toContainText("Waiting for your approval.");
    await waiting.getByRole("button", { name: "Approve ₦1,500,000.00" }).click();
    await expectStep(second, `Approve ₦1,500,000.00 for ${demoPartner.name}?`, width, `confirm-funding-approval-${name}`);
    await expect(second.locator(".confirm-step")).toContainText(operatorAdmin.portal.email);
    expect(await command(page, demoPartner, "live", "wallet topup", { amount: 1_500_000, reference: large })).toMatchObject({ status: "pending" });
    await second.getByRole("button", { name: `Credit ₦1,500,000.00 to ${demoPartner.name}` }).click();
    await expect(second.getByRole("status").filter({ hasText: "Confirmed: ₦1,500,000.00 is credited" })).toBeVisible();
    expect(await command(page, demoPartner, "live", "wallet topup", { amount: 1_500_000, reference: large })).toMatchObject({ status: "credited" });
  });
