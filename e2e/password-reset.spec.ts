/**
 * Issue 38, a forgotten password, at desktop (1280×800) and phone (390×844) width: the owner invites
 * a staff member, who asks for a reset from "Forgot your password?", opens the link from the e-mail
 * the mailbox received (e2e/mailbox.ts), chooses a new password and signs in with it. Each page is
 * axe-checked and screenshotted (password-reset-<step>-desktop|phone), nothing wider than the screen.
 */
import { accounts } from "./server";
import { expect, expectAccessible, expectNoSidewaysScroll, readResetLink, screenshot, signIn, test } from "./support";

const widths = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

test("a staff member who forgot their password resets it from the e-mail and signs in with the new one", async ({ browser }) => {
  const owner = await (await browser.newContext()).newPage();
  await signIn(owner, accounts().demoPartner);
  for (const size of widths) {
    // Someone of their own, so no other spec's sign-in changes.
    const email = `forgetful.${size.name}.${Date.now().toString(36)}@demo-partner.ng`;
    await owner.goto("/portal/team");
    await owner.getByLabel("Name", { exact: true }).fill(`Forgetful ${size.name}`);
    await owner.getByLabel("E-mail", { exact: true }).fill(email);
    await owner.getByRole("button", { name: "Invite", exact: true }).click();
    await expect(owner.locator("#invited-notice")).toContainText(email);

    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    const page = await context.newPage();
    const step = async (name: string) => {
      await expectAccessible(page);
      await expectNoSidewaysScroll(page, size.width);
      await screenshot(page, `password-reset-${name}-${size.name}`);
    };
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await step("ask");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await expect(page.getByRole("status")).toContainText("If an account exists for that address");
    await step("sent");

    await page.goto(await readResetLink(email));
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await step("choose");
    const password = `a new password for ${size.name}`;
    await page.getByLabel("New password", { exact: true }).fill(password);
    await page.getByLabel("New password again", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Save the password" }).click();
    await expect(page.getByRole("status")).toContainText("Your password is saved");
    await step("saved");

    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
    await context.close();
  }
});
