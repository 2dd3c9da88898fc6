import type { Page } from "@playwright/test";
import { newImei } from "../test/support/fixtures";
import { accounts } from "./server";
import { command, expect, expectAccessible, screenshot, signIn, test } from "./support";

/**
 * Issue 36, finding a policy: the partner's Policies and the operator's Transactions find one by
 * its number, the insured's name and their phone as people type it, at both widths; rows and the
 * policy page name the policy by its number and whose it is.
 */

test.describe.configure({ mode: "serial" });

const widths = [
  { name: "desktop", width: 1280 },
  { name: "phone", width: 390 },
];

/** Letters only, unique to this run: a surname nobody else has. */
const surname = () => `Q${Array.from({ length: 6 }, () => "bcdfghjklmnpqrstvwxz"[Math.floor(Math.random() * 20)]).join("")}`;

/** A test-mode consumer of the demo partner with a phone policy, approved at once: its number, the name and the phone as people type it. */
async function insuredWithPolicy(page: Page) {
  const { demoPartner } = accounts();
  // Test-mode set-up goes through the legacy key after "set env_test": another spec rotates the demo partner's test key.
  await command(page, demoPartner, "legacy", "set env_test");
  const last = surname();
  const ten = `803${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  const consumer = await command(page, demoPartner, "legacy", "prfl entity", {
    class: "h",
    name: { first: "Amaka", last },
    phoneNo: `+234${ten}`,
    eMail: `amaka.${crypto.randomUUID().slice(0, 8)}@example.ng`,
  });
  const policy = await command(page, demoPartner, "legacy", `entt_${consumer.id}: insure`, {
    ctgry: "phnn",
    type: "flx1",
    pckg: "1111",
    id: crypto.randomUUID(),
    insrncDrtn: "1y",
    addtnlFact: { brand: "Tecno", model: "Spark 20", uIdnt: newImei() },
  });
  expect(policy.status).toBe("a");
  return { policyNo: policy.policyNo as string, name: `Amaka ${last}`, phone: `0${ten.slice(0, 3)} ${ten.slice(3, 6)} ${ten.slice(6)}` };
}

/** Types `text` into Find, filters, and expects the one policy, counted, as the list's only row. */
async function find(page: Page, text: string, policyNo: string) {
  await page.getByLabel("Find", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByLabel("Find", { exact: true })).toHaveValue(text);
  await expect(page.locator(".list-count")).toHaveText("1 policy");
  await expect(page.getByRole("link", { name: policyNo })).toBeVisible();
}

for (const { name, width } of widths) {
  test(`a partner finds a policy by its number, the insured's name and phone as typed (${name})`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const policy = await insuredWithPolicy(page);
    await signIn(page, accounts().demoPartner);
    await page.goto("/portal/policies");
    await expect(page.getByRole("columnheader", { name: "Policy", exact: true })).toBeVisible();
    await find(page, policy.policyNo, policy.policyNo);
    await find(page, policy.name, policy.policyNo);
    await find(page, policy.phone, policy.policyNo);
    await expectAccessible(page);
    await screenshot(page, `policies-find-phone-${name}`);
    // The row opens the policy, titled by its number and the insured.
    await page.getByRole("link", { name: policy.policyNo }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${policy.policyNo} (${policy.name})`);
    // The window's title begins with it too (the portal's name follows).
    expect((await page.title()).startsWith(`${policy.policyNo} (${policy.name})`)).toBe(true);
    await screenshot(page, `policy-titled-${name}`);
  });

  test(`the operator finds a test policy among every partner's transactions, asked for by mode (${name})`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const policy = await insuredWithPolicy(page);
    await signIn(page, accounts().operatorAdmin);
    await page.goto("/admin/policies");
    // Live business by default: the partner filter lists partners, not the operator's own account.
    await expect(page.getByLabel("Mode", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Partner", { exact: true }).locator("option", { hasText: accounts().demoPartner.name })).toHaveCount(1);
    await page.getByLabel("Find", { exact: true }).fill(policy.phone);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("No policies match.")).toBeVisible();
    await page.getByLabel("Mode", { exact: true }).selectOption("test");
    await page.getByLabel("Partner", { exact: true }).selectOption({ label: accounts().demoPartner.name });
    await find(page, policy.phone, policy.policyNo);
    await find(page, policy.name, policy.policyNo);
    await find(page, policy.policyNo, policy.policyNo);
    await expect(page.locator("main tbody")).toContainText("Test");
    await expectAccessible(page);
    await screenshot(page, `transactions-find-${name}`);
  });
}
