/**
 * Issue 38, item 3 (first part) — the policyholder's own page (docs/self-service.md): the partner
 * mints the consumer's link over the JSON surface; the consumer opens it on a cheap phone (360 px)
 * and on a desktop: their cover with its certificate, their claim and its progress, in the partner's
 * name, accessible, nothing wider than the screen; an expired or broken link says so.
 */
import { accounts } from "./server";
import { command, expect, expectAccessible, expectNoSidewaysScroll, screenshot, test, watDate } from "./support";

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

test("a consumer opens their own page from the link: their cover, its certificate and their claim, at 360 and 1280 px", async ({ page }) => {
  const { demoPartner } = accounts();
  await command(page, demoPartner, "legacy", "set env_test");
  const consumer = await command(page, demoPartner, "legacy", "prfl entity", {
    type: "s",
    class: "h",
    name: { first: "Amaka", last: "Obi" },
    gender: "f",
    dob: { date: "1990-03-02" },
    phoneNo: `+234806${digits(7)}`,
    eMail: `amaka.${crypto.randomUUID().slice(0, 8)}@example.ng`,
    addrss: { addrss: "5 Awolowo Road, Ikoyi, Lagos" },
  });
  const policy = await command(page, demoPartner, "legacy", `entt_${consumer.id}: insure`, {
    ctgry: "vhcl",
    type: "tprt",
    pckg: "1111",
    id: crypto.randomUUID(),
    insrncDrtn: "1y",
    addtnlFact: { brand: "Kia", model: "Rio", year: "2019", chsssId: `KNADN512${digits(9)}`, engineId: `G4LC${digits(7)}`, rgstrtId: `LND${digits(3)}AB` },
  });
  const claim = await command(page, demoPartner, "legacy", "claim submit", {
    policy: policy.id,
    incidentDate: watDate(),
    description: "Side mirror broken in traffic on Ozumba Mbadiwe",
    amount: 35_000,
  });
  const link = await command(page, demoPartner, "legacy", "consumer link", { consumer: consumer.id });
  const path = new URL(link.url).pathname;
  for (const { name, width } of [
    { name: "phone", width: 360 },
    { name: "desktop", width: 1280 },
  ]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: "Hello, Amaka Obi" })).toBeVisible();
    await expect(page.getByRole("banner")).toContainText("Demo Partner");
    const cover = page.getByRole("region", { name: "Your cover" });
    await expect(cover).toContainText("Vehicle, third-party");
    await expect(cover).toContainText(policy.policyNo);
    await expect(cover.getByRole("link", { name: "Download your certificate" })).toBeVisible();
    const claims = page.getByRole("region", { name: "Your claims" });
    await expect(claims).toContainText(`Claim ${claim.claimNo}`);
    await expect(claims).toContainText("Received: we will look at it soon");
    await expectNoSidewaysScroll(page, width);
    await expectAccessible(page);
    await screenshot(page, `self-service-${name}`);
  }
});

test.describe("a link that opens nothing", () => {
  // The refusals answer 404 on purpose, which Chromium logs as a failed load.
  test.use({ allowedBrowserErrors: [/Failed to load resource: the server responded with a status of 404/] });

  test("a broken link says so in plain words, at 360 px", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto("/my/v1.broken.link");
    await expect(page.getByRole("heading", { level: 1, name: "This link does not work" })).toBeVisible();
    await expectNoSidewaysScroll(page, 360);
    await expectAccessible(page);
    await screenshot(page, "self-service-broken-link-phone");
  });
});
