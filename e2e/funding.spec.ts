/** Verified wallet funding (docs/funding.md): a live top-up waits for the money; the sandbox pays it; an administrator confirms a transfer by hand, with four eyes above the threshold. */
import type { APIRequestContext, Page } from "@playwright/test";
import { type Account, accounts } from "./server";
import { expect, expectAccessible, screenshot, signIn, test } from "./support";

test.describe.configure({ mode: "serial" });

async function command(request: APIRequestContext, account: Account, label: "test" | "live" | "legacy", cmmnd: string, seed?: unknown) {
  const response = await request.post("/", {
    data: { userInfo: { id: account.partnerId, athrzt: account.keys[label] }, cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed } },
  });
  return response.json();
}

const naira = (text: string | null) => Number((text ?? "").replace(/[₦,]/g, ""));
const tag = () => crypto.randomUUID().slice(0, 8).toUpperCase();

test("a partner in live mode tops up, sees how to pay, the sandbox pays, the balance rises", async ({ page }) => {
  const { demoPartner } = accounts();
  await signIn(page, demoPartner);
  await command(page.request, demoPartner, "legacy", "set env_live");
  try {
    await page.goto("/portal/wallet");
    const before = naira(await page.locator("#balance").textContent());
    const reference = `E2E-${tag()}-unpaid`;
    await page.getByLabel("Amount in naira", { exact: true }).fill("150,000");
    await page.getByLabel("Payment reference", { exact: true }).fill(reference);
    await page.getByRole("button", { name: "Top up" }).click();

    const howToPay = page.locator("#how-to-pay");
    await expect(howToPay).toContainText(`Top-up ${reference} is waiting for your transfer`);
    await expect(howToPay).toContainText("Sandbox Microfinance Bank");
    await expect(howToPay).toContainText(/\d{10}/);
    await expect(howToPay).toContainText("₦150,000.00");
    await expect(howToPay).toContainText("Pay before");
    await expect(page.locator("#funding-rows")).toContainText("Waiting for payment");
    expect(naira(await page.locator("#balance").textContent())).toBe(before);
    await expectAccessible(page);
    await screenshot(page, "wallet-funding-pending");

    await howToPay.getByRole("button", { name: "Pay now (sandbox)" }).click();
    await expect(page.locator("#balance")).not.toHaveText(/^₦0\.00$|^$/);
    await expect.poll(async () => naira(await page.locator("#balance").textContent())).toBe(before + 150_000);
    await expect(page.locator("#funding-rows tr", { hasText: reference })).toContainText("Credited");
    await screenshot(page, "wallet-funding-paid");
  } finally {
    await command(page.request, demoPartner, "legacy", "set env_test");
  }
});

/** The card of one funding on the operator's page, its confirmation form opened. */
async function openConfirmation(page: Page, reference: string) {
  await page.goto("/admin/fundings");
  const card = page.locator("article", { hasText: reference });
  await card.getByRole("link", { name: "Confirm a bank transfer" }).click();
  return page.locator("article", { hasText: reference });
}

test("an administrator confirms a bank transfer by hand; above the threshold it waits for a second administrator", async ({ page }) => {
  const { demoPartner, operatorAdmin } = accounts();
  const small = `E2E-${tag()}-unpaid`;
  const large = `E2E-${tag()}-unpaid`;
  expect(await command(page.request, demoPartner, "live", "wallet topup", { amount: 20_000, reference: small })).toMatchObject({ status: "pending" });
  expect(await command(page.request, demoPartner, "live", "wallet topup", { amount: 1_500_000, reference: large })).toMatchObject({ status: "pending" });

  await signIn(page, operatorAdmin);
  await page.getByRole("link", { name: "Fundings" }).click();
  await expect(page.getByRole("heading", { name: "Wallet fundings" })).toBeVisible();
  await expect(page.locator("article", { hasText: small })).toContainText("Waiting for payment");

  let card = await openConfirmation(page, small);
  await card.getByLabel("Bank reference", { exact: true }).fill(`NIP${tag()}${tag()}`);
  await card.getByLabel("Amount received in naira", { exact: true }).fill("20,000");
  await expectAccessible(page);
  await screenshot(page, "admin-funding-confirm");
  await card.getByRole("button", { name: "Confirm a bank transfer" }).click();
  // It asks first, naming the partner and the amount (e2e/confirmations.spec.ts).
  await card.getByRole("button", { name: `Credit ₦20,000.00 to ${demoPartner.name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Confirmed: ₦20,000.00 is credited" })).toBeVisible();
  await expect(page.locator("article", { hasText: small })).toHaveCount(0);
  expect(await command(page.request, demoPartner, "live", "wallet topup", { amount: 20_000, reference: small })).toMatchObject({ status: "credited" });

  // ₦1,500,000 is above the four-eyes threshold (₦1,000,000): it waits, and its requester cannot approve it.
  card = await openConfirmation(page, large);
  await card.getByLabel("Bank reference", { exact: true }).fill(`NIP${tag()}${tag()}`);
  await card.getByLabel("Amount received in naira", { exact: true }).fill("1,500,000");
  await card.getByRole("button", { name: "Confirm a bank transfer" }).click();
  await card.getByRole("button", { name: `Credit ₦1,500,000.00 to ${demoPartner.name}` }).click();
  await expect(page.getByRole("status").filter({ hasText: "waits for a second administrator" })).toBeVisible();
  card = page.locator("article", { hasText: large });
  await expect(card).toContainText("Another administrator must approve it.");
  await expect(card.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await screenshot(page, "admin-funding-four-eyes");
  expect(await command(page.request, demoPartner, "live", "wallet topup", { amount: 1_500_000, reference: large })).toMatchObject({ status: "pending" });
  await card.getByRole("button", { name: "Reject the confirmation" }).click();
  await expect(page.getByRole("status").filter({ hasText: "is rejected: nothing was credited" })).toBeVisible();
  await expect(page.locator("article", { hasText: large }).getByRole("link", { name: "Confirm a bank transfer" })).toBeVisible();
});
