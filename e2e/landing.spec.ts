import { expect, test } from "./support";

test.describe("the landing page", () => {
  // /healthz is JSON, with no <head> to say there is no icon, so Chromium asks for /favicon.ico and logs its 404.
  test.use({
    allowedBrowserErrors: [/on http:\/\/[^ ]+\/healthz from http:\/\/[^ ]+\/favicon\.ico: Failed to load resource: the server responded with a status of 404/],
  });

  test("explains the command endpoint and links to health", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle("Partner command service");
    await expect(page.getByRole("heading", { name: "Partner command service" })).toBeVisible();
    await page.screenshot({ path: "e2e/screenshots/landing.png", fullPage: true });
    await page.getByRole("link", { name: "/healthz" }).click();
    await expect(page.locator("body")).toContainText('"database":"up"');
  });
});

test("a browser POST of a malformed body still gets HTTP 200 with exctnFdbck 55", async ({ request }) => {
  const response = await request.post("/", { data: "{oops", headers: { "content-type": "application/json" } });
  expect(response.status()).toBe(200);
  expect((await response.json()).exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
});
