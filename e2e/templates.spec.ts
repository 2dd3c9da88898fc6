/**
 * Issue 38, the messages to the insured (docs/templates.md), at desktop (1280×800) and phone (390×844)
 * width: partner staff open Messages, edit the SMS of "Policy issued" and watch the preview follow the
 * text with its length in parts, are refused beside the field for a variable the message cannot fill,
 * save, and see the list say "edited"; then the e-mail's editor with its branded preview, and the
 * Branding page. Every page is screenshotted (templates-<page>-desktop|phone) and axe-checked, nothing
 * wider than the screen.
 */
import { accounts } from "./server";
import { expect, expectAccessible, expectNoSidewaysScroll, screenshot, signIn, test } from "./support";

// The refused save answers 400 with the form and its message, which Chromium logs as a failed load.
test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 400/] });

const widths = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

test("partner staff edit a template, see the preview change, and save it", async ({ page }) => {
  await signIn(page, accounts().demoPartner);
  for (const { name, width, height } of widths) {
    await page.setViewportSize({ width, height });
    const look = async (what: string) => {
      await expectNoSidewaysScroll(page, width);
      await expectAccessible(page);
      await screenshot(page, `templates-${what}-${name}`);
    };

    await page.goto("/portal/message-settings");
    await expect(page.getByRole("heading", { name: "Message templates", exact: true })).toBeVisible();
    await look("list");

    await page.goto("/portal/message-settings/policy.issued/sms");
    const text = page.getByLabel("Text");
    const preview = page.locator("#preview");
    const words = `{{partnerName}} (${name}): policy {{policyNo}} is yours. Certificate: {{certificateLink}}`;
    await text.fill(words);
    await expect(preview.locator(".sms-preview")).toContainText(`(${name}): policy POL-VHCL-2026-7G2K9QX4M1AB is yours`);
    await expect(preview.locator("#sms-segments")).toContainText("1 part");
    await text.fill(`${words} ${"and more words ".repeat(8)}`);
    await expect(preview.locator("#sms-segments")).toContainText("2 parts");
    await look("sms-editor");

    await text.fill("Hello {{claimNo}}");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#f-body-error")).toContainText("{{claimNo}} is not a variable of this message");
    await look("refused");

    await text.fill(words);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Your own text is in use.")).toBeVisible();
    await expect(page.getByText("Saved: messages written from now on use this text.")).toBeVisible();

    await page.goto("/portal/message-settings/policy.issued/email");
    await expect(page.locator("#preview .email-preview")).toContainText("Your certificate:");
    await page.getByLabel("Subject").fill("Welcome, {{insuredName}}");
    await expect(page.locator("#preview")).toContainText("Welcome, Adaeze Okafor");
    await look("email-editor");

    await page.goto("/portal/branding");
    await expect(page.getByRole("heading", { name: "Branding" })).toBeVisible();
    await look("branding");
  }
});
