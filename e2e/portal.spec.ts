import { accounts } from "./server";
import { expect, expectAccessible, PNG, screenshot, signIn, test, VEHICLE_FORM, visit } from "./support";

test.describe.configure({ mode: "serial" });

test("a partner issues a live comprehensive vehicle policy; an administrator approves it; the partner downloads the certificate", async ({ browser }) => {
  const { demoPartner, operatorAdmin } = accounts();
  const partner = await (await browser.newContext()).newPage();
  await signIn(partner, demoPartner);
  await expectAccessible(partner);
  await screenshot(partner, "dashboard");

  // Live mode, and money in the wallet for the premium (through the JSON surface, as a partner's system would).
  const envelope = (cmmnd: string, seed?: unknown) => ({
    userInfo: { id: demoPartner.partnerId, athrzt: demoPartner.keys.legacy },
    cmmnd: seed ? { cmmnd, seed } : { cmmnd },
  });
  await partner.request.post("/", { data: envelope("set env_live") });
  await partner.request.post("/", { data: envelope("wallet topup", { amount: 500_000, reference: "e2e-fund-1" }) });

  // Register the consumer through the form.
  await visit(partner, "/portal/consumers/new", "consumer-form");
  await partner.getByLabel("First name", { exact: true }).fill("Emeka");
  await partner.getByLabel("Last name", { exact: true }).fill("Obi");
  await partner.getByLabel("Gender", { exact: true }).selectOption("m");
  await partner.getByLabel("Date of birth", { exact: true }).fill("1985-06-30");
  await partner.getByLabel("Phone number", { exact: true }).fill("+2348051234567");
  await partner.getByLabel("E-mail", { exact: true }).fill("emeka.obi@example.ng");
  await partner.getByLabel("Address", { exact: true }).fill("22 Ahmadu Bello Way, Kaduna");
  await partner.getByLabel("Identity document", { exact: true }).selectOption("nidd");
  await partner.getByLabel("Identity number", { exact: true }).fill("12345678901");
  await partner.getByLabel("Scan of the identity document", { exact: true }).setInputFiles({ name: "nin.png", mimeType: "image/png", buffer: PNG });
  await partner.getByRole("button", { name: "Register" }).click();
  await expect(partner.getByRole("heading", { name: "Emeka Obi" })).toBeVisible();
  await expectAccessible(partner);
  await screenshot(partner, "consumer-detail");

  // Quote: the premium follows the fields; then issue.
  await partner.getByRole("link", { name: "Quote & issue for this consumer" }).click();
  await partner.getByLabel("Product", { exact: true }).selectOption("vhcl-cmpr-1111");
  await expect(partner.getByLabel("Insured value of the vehicle (₦)", { exact: true }).first()).toBeVisible();
  await partner.getByLabel("Insured value of the vehicle (₦)", { exact: true }).first().fill("4,000,000");
  await partner.getByLabel("Cover duration", { exact: true }).selectOption("1y");
  await expect(partner.locator("#premium")).toContainText("₦200,000.00");
  for (const [label, value] of Object.entries(VEHICLE_FORM)) await partner.getByLabel(label, { exact: true }).fill(value);
  await expectAccessible(partner);
  await screenshot(partner, "quote-and-issue");
  await partner.getByRole("button", { name: "Issue policy" }).click();
  // A live policy asks first, with its premium (e2e/confirmations.spec.ts).
  await partner.getByRole("button", { name: "Issue and pay ₦200,000.00" }).click();
  // The policy's page, titled by its product and insured until it has a number; its address carries the reference.
  await partner.waitForURL(/\/portal\/policies\/[0-9a-f-]{36}$/);
  await expect(partner.getByRole("heading", { level: 1 })).toContainText("(");
  await expect(partner.locator("#policy-status")).toContainText("Pending");
  const reference = new URL(partner.url()).pathname.split("/").pop()!;
  await screenshot(partner, "policy-pending");

  // The administrator approves it from another browser context.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  // Decisions ask for confirmation first.
  admin.on("dialog", (dialog) => void dialog.accept());
  await signIn(admin, operatorAdmin);
  await expect(admin.getByRole("row", { name: new RegExp(reference) })).toBeVisible();
  await expectAccessible(admin);
  await screenshot(admin, "admin-approvals");
  // The review desk: the consumer's details and documents, the decision.
  await admin
    .getByRole("row", { name: new RegExp(reference) })
    .getByRole("link", { name: "Review" })
    .click();
  await expect(admin.getByRole("heading", { name: "Your review" })).toBeVisible();
  await expect(admin.getByRole("img", { name: "Scan of the identity document" })).toBeVisible();
  // The registry's answer arrives after the page (a first lookup takes seconds).
  await expect(admin.locator("#registry-check")).not.toContainText("Checking the vehicle registry", { timeout: 30_000 });
  await expect(admin.locator("#registry-check")).toContainText("VIN");
  await expectAccessible(admin);
  await screenshot(admin, "admin-review-desk");
  await admin.goto("/admin");
  await admin
    .getByRole("row", { name: new RegExp(reference) })
    .getByRole("button", { name: "Approve" })
    .click();
  await expect(admin.getByRole("status").filter({ hasText: `Approved ${reference}` })).toBeVisible();

  // The partner's page updates itself and offers the certificate.
  await expect(partner.locator("#policy-status")).toContainText("Approved", { timeout: 15_000 });
  const download = partner.waitForEvent("download");
  await partner.getByRole("link", { name: "Download the certificate" }).click();
  const file = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 4).toString()).toBe("%PDF");
  await screenshot(partner, "policy-approved");
  await adminContext.close();
});

test("another partner never sees the first partner's consumers or policies", async ({ browser }) => {
  const { operatorAdmin } = accounts();
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, operatorAdmin);
  await visit(admin, "/admin/partners", "admin-partners");
  await admin.getByLabel("Partner name", { exact: true }).fill("Second Lender Ltd");
  await admin.getByLabel("Owner's e-mail", { exact: true }).fill("owner@second-lender.ng");
  await admin.getByRole("button", { name: "Create partner" }).click();
  const credentials = await admin.locator(".secret").last().textContent();
  const [email, password] = credentials!.split(" / ");
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signIn(other, { portal: { email: email!.trim(), password: password!.trim() } });
  await other.goto("/portal/consumers");
  await expect(other.getByText("Emeka Obi")).toHaveCount(0);
  await other.goto("/portal/policies");
  await expect(other.getByText("No policies match.")).toBeVisible();
  await otherContext.close();
});
