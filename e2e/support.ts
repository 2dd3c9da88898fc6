import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import type { Account } from "./server";

/** A 1×1 PNG: a real image for document inputs. */
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

export async function signIn(page: Page, account: Pick<Account, "portal">) {
  await page.goto("/login");
  await page.getByLabel("E-mail", { exact: true }).fill(account.portal.email);
  await page.getByLabel("Password", { exact: true }).fill(account.portal.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
}

/** No serious or critical axe-core violations on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

/** A full-page screenshot for people to look at (.ci/run lists the folder). */
export async function screenshot(page: Page, name: string) {
  mkdirSync("e2e/screenshots", { recursive: true });
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}

/** Visit, check accessibility, keep a screenshot. */
export async function visit(page: Page, path: string, name: string) {
  await page.goto(path);
  await expectAccessible(page);
  await screenshot(page, name);
}
