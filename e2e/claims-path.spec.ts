/**
 * Issue 37, a claim's whole path through the portal, in the sandbox, at desktop (1280×800) and phone
 * (390×844) width: the partner makes a claim with a photo on a test policy issued through "Quote &
 * issue"; an assessor takes it into review, ticks the checklist and recommends approving more than
 * their authority reaches; the head of claims confirms it; the partner gives the account to pay
 * into, downloads the discharge voucher and records the insured's acceptance; the sandbox bank pays,
 * and the operator sees the payout on the claim and on "Claim payouts" with the ledger's totals.
 * Then a payout to the sandbox's failing account (sent again, then paid into another account on a
 * new voucher), and a rejected claim with its letter. Each step is screenshotted
 * (claim-path-<step>-desktop|phone), each page state axe-checked, nothing wider than the screen.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { type Account, accounts, E2E_INSTANCES } from "./server";
import { command, expect, expectAccessible, expectNoSidewaysScroll, PNG, screenshot, signIn, test, watDate } from "./support";

test.describe.configure({ mode: "serial" });

const widths = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

const GTBANK = "Guaranty Trust Bank (GTBank)";
/** The sandbox bank pays every account (docs/payouts.md, "Scenarios by account number") but one ending in 1: that one fails at once. */
const PAYS = "0123456780";
const FAILS = "0123456781";

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");
const letters = (n: number) => Array.from({ length: n }, () => "ABCDEFGHJKLMNPRSTUVWXYZ"[Math.floor(Math.random() * 23)]).join("");

/**
 * A consumer of their own for each claim, with a phone, an e-mail and a vehicle of their own: the fraud
 * signals count earlier claims by the same claimant or vehicle (and would send the claim to a second
 * reviewer for that, not for its amount).
 */
async function newConsumer(page: Page, first: string, last: string) {
  const consumer = await command(page, accounts().demoPartner, "legacy", "prfl entity", {
    type: "s",
    class: "h",
    name: { first, last },
    gender: "f",
    dob: { date: "1988-06-14" },
    phoneNo: `+234803${digits(7)}`,
    eMail: `${first.toLowerCase()}.${crypto.randomUUID().slice(0, 8)}@example.ng`,
    addrss: { addrss: "14 Adeola Odeku Street, Victoria Island, Lagos" },
  });
  return consumer.id as string;
}

const newVehicle = () => ({
  Make: "Toyota",
  Model: "Corolla",
  "Year of manufacture": "2020",
  "Chassis number / VIN": `2T1BURHE0LC${digits(6)}`,
  "Engine number": `2ZR${digits(7)}`,
  "Registration plate": `KJA${digits(3)}${letters(2)}`,
});

/** A claim on a test policy of a consumer of its own, made through the JSON surface (the shorter walks start from one). */
async function claimMadeByApi(page: Page, first: string, last: string, amount: number, description: string) {
  const { demoPartner } = accounts();
  const consumerId = await newConsumer(page, first, last);
  const vehicle = newVehicle();
  const policy = await command(page, demoPartner, "legacy", `entt_${consumerId}: insure`, {
    ctgry: "vhcl",
    type: "tprt",
    pckg: "1111",
    id: crypto.randomUUID(),
    insrncDrtn: "1y",
    addtnlFact: {
      brand: vehicle.Make,
      model: vehicle.Model,
      year: vehicle["Year of manufacture"],
      chsssId: vehicle["Chassis number / VIN"],
      engineId: vehicle["Engine number"],
      rgstrtId: vehicle["Registration plate"],
    },
  });
  const claim = await command(page, demoPartner, "legacy", "claim submit", { policy: policy.id, incidentDate: watDate(), description, amount });
  return claim.claimNo as string;
}

/** Sign in with a one-time password and choose one's own. */
async function signInFirstTime(page: Page, email: string, oneTime: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(oneTime);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/portal\/password$/);
  await page.getByLabel("Current password").fill(oneTime);
  await page.getByLabel("New password", { exact: true }).fill("an assessor's own long password");
  await page.getByLabel("New password again").fill("an assessor's own long password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible({ timeout: 30_000 });
}

/** A person in a browser of their own at the test's width, signed in. */
async function signedIn(browser: Browser, viewport: { width: number; height: number }, account: Account) {
  const page = await (await browser.newContext({ viewport })).newPage();
  await signIn(page, account);
  return page;
}

/**
 * An assessor (authority up to ₦1,000,000) in a browser of their own: the second administrator
 * src/main.ts seeds as one. The two-instance set-up makes its accounts with the CLI, whose
 * administrators are all heads of claims, so there the head of claims invites one on the
 * Administrators page (an invited administrator decides claims as an assessor).
 */
async function anAssessor(browser: Browser, viewport: { width: number; height: number }, head: Page) {
  if (E2E_INSTANCES === 1) {
    const { secondAdmin } = accounts();
    return { page: await signedIn(browser, viewport, secondAdmin), email: secondAdmin.portal.email };
  }
  const page = await (await browser.newContext({ viewport })).newPage();
  const email = `assessor.${crypto.randomUUID().slice(0, 8)}@operator.example`;
  await head.goto("/admin/administrators");
  await head.getByLabel("Name").fill("Claims Assessor");
  await head.getByLabel("E-mail").fill(email);
  await head.getByRole("button", { name: "Invite" }).click();
  const oneTime = (await head.locator("#one-time-password").textContent())!.trim();
  await signInFirstTime(page, email, oneTime);
  return { page, email };
}

/** The page as it is now: nothing wider than the screen, no serious axe finding, kept as claim-path-<step>-<width>. */
async function step(page: Page, width: number, widthName: string, name: string) {
  await expectNoSidewaysScroll(page, width);
  await expectAccessible(page);
  await screenshot(page, `claim-path-${name}-${widthName}`);
}

/** A confirmation on screen: its question focused, then checked like any step. */
async function confirmation(page: Page, question: string, width: number, widthName: string, name: string) {
  await expect(page.getByRole("heading", { name: question })).toBeVisible();
  await expect(page.locator(".confirm-step [autofocus]")).toBeFocused();
  await step(page, width, widthName, name);
  return page.locator(".confirm-step");
}

const status = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const payment = (page: Page) => page.getByRole("region", { name: "Payment", exact: true });

/** The download behind the link: a PDF, with its file name. */
async function downloadPdf(page: Page, link: string) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: link }).click()]);
  const path = await download.path();
  expect(readFileSync(path).subarray(0, 5).toString("latin1"), "the download is a PDF").toBe("%PDF-");
  return download.suggestedFilename();
}

/** The payout account's ledger on "Claim payouts", test mode: what it says was paid out, came back and is net, in kobo. */
async function ledger(page: Page) {
  await page.goto("/admin/payouts?mode=test");
  const kobo = async (row: string) =>
    Math.round(
      Number(
        (await page
          .getByRole("row", { name: new RegExp(`^${row}`) })
          .locator("td")
          .textContent())!.replace(/[₦,\s]/g, ""),
      ) * 100,
    );
  return { paidOut: await kobo("Claims paid out"), reversed: await kobo("Reversed"), net: await kobo("Net paid out") };
}

for (const { name, width, height } of widths) {
  const viewport = { width, height };

  test(`a claim's whole path: made with a photo, recommended by an assessor, confirmed by the head of claims, paid into the account given on a voucher the insured accepts (${name})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(900_000);
    const { demoPartner, operatorAdmin } = accounts();
    await page.setViewportSize(viewport);
    await command(page, demoPartner, "legacy", "set env_test");
    const head = await signedIn(browser, viewport, operatorAdmin);
    const { page: assessor, email: assessorEmail } = await anAssessor(browser, viewport, head);
    const before = await ledger(head);

    // 1. The partner issues a test policy through "Quote & issue", then makes a claim on it with a photo.
    const insured = { first: "Chiamaka", last: "Obi" };
    const consumerId = await newConsumer(page, insured.first, insured.last);
    await signIn(page, demoPartner);
    await page.goto(`/portal/consumers/${consumerId}`);
    await page.getByRole("link", { name: "Quote & issue for this consumer" }).click();
    await page.getByLabel("Product", { exact: true }).selectOption("vhcl-tprt-1111");
    await page.getByLabel("Cover duration", { exact: true }).selectOption("1y");
    for (const [label, value] of Object.entries(newVehicle())) await page.getByLabel(label, { exact: true }).fill(value);
    await expect(page.locator("#premium")).toContainText("₦");
    await page.getByRole("button", { name: "Issue policy" }).click();
    await page.waitForURL(/\/portal\/policies\/[0-9a-f-]{36}$/);
    const policyReference = decodeURIComponent(new URL(page.url()).pathname.split("/").at(-1)!);
    await expect(page.locator("main")).toContainText("Approved");
    await step(page, width, name, "policy");

    if (width < 1280) await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Claims", exact: true }).click();
    await page.getByRole("link", { name: "Make a claim" }).click();
    await page.getByLabel("Policy reference", { exact: true }).fill(policyReference);
    await page.getByLabel("Date of the incident", { exact: true }).fill(watDate());
    await page.getByLabel("What happened", { exact: true }).fill("Hit from behind by a bus at the Ojuelegba junction: boot, bumper and both rear lights");
    await page.getByLabel("Amount claimed in naira", { exact: true }).fill("2,500,000");
    await page.getByLabel("Document 1", { exact: true }).setInputFiles({ name: "rear-damage.png", mimeType: "image/png", buffer: PNG });
    await step(page, width, name, "claim-form");
    await page.getByRole("button", { name: "Submit the claim" }).click();
    await page.waitForURL(/\/portal\/claims\/CLM-/);
    const claimNo = new URL(page.url()).pathname.split("/").at(-1)!;
    await expect(page.locator("#claim")).toContainText("Submitted");
    await expect(page.getByRole("table", { name: "Amounts of this claim" })).toContainText("₦2,500,000.00");
    await expect(page.getByRole("link", { name: "rear-damage.png" })).toBeVisible();
    await step(page, width, name, "claim-made");

    // 2. The assessor takes it into review, ticks the checklist, and approves ₦2,000,000: above their ₦1,000,000, a recommendation.
    await assessor.goto(`/admin/claims/${claimNo}`);
    await assessor.getByRole("button", { name: "Start the review" }).click();
    await expect(status(assessor, `${claimNo} is now in review`)).toBeVisible();
    const checks = assessor.locator('#claim input[name="check"]');
    expect(await checks.count()).toBeGreaterThan(1);
    for (const check of await checks.all()) await check.check();
    await assessor.getByLabel("Assessor", { exact: true }).selectOption(assessorEmail.toLowerCase());
    await assessor.getByLabel("Reserve in naira (the expected cost)").fill("2,000,000");
    await assessor.getByLabel("Why the reserve changes").fill("The body shop's estimate for the boot, the bumper and the lights");
    await assessor.getByRole("button", { name: "Save the assessment" }).click();
    await expect(status(assessor, "The assessment is saved.")).toBeVisible();
    for (const check of await checks.all()) await expect(check).toBeChecked();
    await step(assessor, width, name, "assessed");

    await assessor.getByLabel("Approved amount in naira").fill("2,000,000");
    await assessor.getByRole("button", { name: "Approve", exact: true }).click();
    let asked = await confirmation(assessor, `Recommend approving claim ${claimNo} for ₦2,000,000.00 payable?`, width, name, "recommend");
    await expect(asked).toContainText("Your authority as an assessor reaches ₦1,000,000.00: this is recorded as your recommendation");
    await expect(asked).toContainText("₦2,500,000.00");
    await asked.getByRole("button", { name: "Recommend ₦2,000,000.00 payable" }).click();
    await expect(
      status(
        assessor,
        `Your recommendation, approving ₦2,000,000.00 payable, is recorded: it applies once a second administrator with the authority confirms it. Claim ${claimNo} stays in review.`,
      ),
    ).toBeVisible();
    const waiting = assessor.getByRole("region", { name: "Waiting for a second administrator" });
    await expect(waiting).toContainText("Approve for ₦2,000,000.00, ₦2,000,000.00 payable");
    await expect(waiting).toContainText("you recommended this decision");
    await expect(assessor.getByRole("button", { name: /^Confirm/ })).toHaveCount(0);
    await expect(assessor.locator("#claim")).toContainText("In review");
    await step(assessor, width, name, "recommended");

    // 3. The head of claims sees the recommendation and confirms it, from a confirmation naming what is payable.
    await head.goto(`/admin/claims/${claimNo}`);
    const recommendation = head.getByRole("region", { name: "Waiting for a second administrator" });
    await expect(recommendation).toContainText("Approve for ₦2,000,000.00, ₦2,000,000.00 payable");
    await expect(recommendation).toContainText(`Recommended by ${assessorEmail}`);
    await expect(recommendation).toContainText("It is above the authority of the administrator who recommended it.");
    await step(head, width, name, "recommendation-seen");
    await recommendation.getByRole("button", { name: "Confirm: approve ₦2,000,000.00 payable" }).click();
    asked = await confirmation(head, `Approve claim ${claimNo} for ₦2,000,000.00 payable?`, width, name, "confirm-approval");
    await expect(asked).toContainText("You are the second administrator: once you confirm, the approval applies.");
    await asked.getByRole("button", { name: "Approve ₦2,000,000.00 payable" }).click();
    await expect(status(head, `Claim ${claimNo} is now approved: approved ₦2,000,000.00, payable ₦2,000,000.00.`)).toBeVisible();
    await expect(head.getByRole("table", { name: "Amounts of this claim" })).toContainText("₦2,000,000.00");
    await step(head, width, name, "approved");

    // 4. The partner gives the account to pay into: the bank's name for it matches, and discharge voucher 1 names it.
    await page.reload();
    await expect(page.locator("#claim")).toContainText("Approved");
    await expect(payment(page)).toContainText("The discharge voucher is issued once the account to pay into is given.");
    await step(page, width, name, "account-asked");
    await page.getByLabel("Bank", { exact: true }).selectOption({ label: GTBANK });
    await page.getByLabel("Account number", { exact: true }).fill(PAYS);
    await page.getByRole("button", { name: "Give the account" }).click();
    await expect(status(page, "The account is saved: discharge voucher version 1 names it.")).toBeVisible();
    await expect(payment(page)).toContainText(`${GTBANK}, ${PAYS}`);
    await expect(payment(page)).toContainText("The bank's name for the account matches the insured's");
    await expect(payment(page).getByRole("heading", { name: "Discharge voucher, version 1" })).toBeVisible();
    await expect(payment(page)).toContainText("₦2,000,000.00 payable");
    await expect(payment(page)).toContainText("Waiting for the insured's acceptance");
    await step(page, width, name, "voucher");
    expect(await downloadPdf(page, "Download the voucher (PDF)")).toBe(`discharge-voucher-${claimNo}-v1.pdf`);

    // 5. The partner records the insured's acceptance, from a confirmation naming the amount and the account: the sandbox bank pays.
    await page.getByRole("button", { name: "Record the insured's acceptance of ₦2,000,000.00" }).click();
    asked = await confirmation(page, `Record that ${insured.first} ${insured.last} accepts ₦2,000,000.00 for claim ${claimNo}?`, width, name, "accept");
    await expect(asked).toContainText(`${GTBANK}, ${PAYS}`);
    await expect(asked).toContainText("is sent at once to");
    await asked.getByRole("button", { name: "Record the acceptance and pay ₦2,000,000.00" }).click();
    await expect(status(page, `The acceptance is recorded and the bank confirmed the payment: claim ${claimNo} is paid.`)).toBeVisible();
    await expect(page.locator("#claim .card").first()).toContainText("Paid");
    await expect(payment(page)).toContainText("Paid: the bank confirmed the money arrived");
    await expect(payment(page)).toContainText("in the partner's portal");
    await step(page, width, name, "paid");

    // 6. The operator sees the payout on the claim, and on "Claim payouts" its row and the ledger's totals.
    await head.goto(`/admin/claims/${claimNo}`);
    await expect(payment(head)).toContainText("Paid: the bank confirmed the money arrived");
    await expect(payment(head)).toContainText("₦2,000,000.00");
    await step(head, width, name, "operator-paid");
    if (width < 1280) await head.getByRole("button", { name: "Menu" }).click();
    await head.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Claim payouts" }).click();
    await expect(head.getByRole("heading", { level: 1, name: "Claim payouts" })).toBeVisible();
    await head.getByLabel("Mode", { exact: true }).selectOption({ label: "Test (sandbox claims)" });
    await head.getByRole("button", { name: "Filter" }).click();
    await expect(head.getByText("The sandbox's payout account")).toBeVisible();
    const row = head.getByRole("row", { name: new RegExp(claimNo) });
    await expect(row).toContainText("Paid: the bank confirmed the money arrived");
    await expect(row).toContainText("₦2,000,000.00");
    await expect(row).toContainText(`${GTBANK}, ${PAYS}`);
    await step(head, width, name, "payouts");
    const after = await ledger(head);
    expect(after.paidOut - before.paidOut, "the ledger's claims paid out grew by the payout").toBe(200_000_000);
    expect(after.net - before.net).toBe(200_000_000);
    expect(after.net).toBe(after.paidOut - after.reversed);
    await assessor.context().close();
    await head.context().close();
  });

  test(`a payout to an account the bank refuses: failed with the bank's words, sent again, then paid into another account on a new voucher (${name})`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(600_000);
    const { demoPartner, operatorAdmin } = accounts();
    await page.setViewportSize(viewport);
    await command(page, demoPartner, "legacy", "set env_test");
    const claimNo = await claimMadeByApi(page, "Tunde", "Bakare", 300_000, "Windscreen shattered by a falling branch on Awolowo Road");
    const head = await signedIn(browser, viewport, operatorAdmin);
    await head.goto(`/admin/claims/${claimNo}`);
    await head.getByRole("button", { name: "Start the review" }).click();
    await expect(status(head, `${claimNo} is now in review`)).toBeVisible();
    await head.getByRole("button", { name: "Approve", exact: true }).click();
    await head.getByRole("button", { name: "Approve ₦300,000.00 payable" }).click();
    await expect(status(head, `Claim ${claimNo} is now approved`)).toBeVisible();

    // The account ends in 1: the sandbox bank refuses the transfer at once.
    await signIn(page, demoPartner);
    await page.goto(`/portal/claims/${claimNo}`);
    await page.getByLabel("Bank", { exact: true }).selectOption({ label: GTBANK });
    await page.getByLabel("Account number", { exact: true }).fill(FAILS);
    await page.getByRole("button", { name: "Give the account" }).click();
    await expect(status(page, "discharge voucher version 1 names it")).toBeVisible();
    await page.getByRole("button", { name: "Record the insured's acceptance of ₦300,000.00" }).click();
    await page.getByRole("button", { name: "Record the acceptance and pay ₦300,000.00" }).click();
    await expect(status(page, "The acceptance is recorded, but the bank refused the transfer (Dormant account): nothing was paid.")).toBeVisible();
    await expect(payment(page)).toContainText("Failed: nothing was paid");
    await expect(payment(page)).toContainText(`₦300,000.00 to TUNDE BAKARE, ${GTBANK}, ${FAILS}`);
    await expect(payment(page)).toContainText("The bank said: Dormant account");
    await expect(payment(page)).toContainText("If the account is wrong or closed, give another below");
    await expect(page.locator("#claim .card").first()).toContainText("Approved");
    await step(page, width, name, "failed");

    // The operator sends it again, from a confirmation naming the amount and the account: the bank refuses again.
    await head.goto(`/admin/claims/${claimNo}`);
    await expect(payment(head)).toContainText("Failed: nothing was paid");
    await expect(payment(head)).toContainText("The bank said: Dormant account");
    await step(head, width, name, "operator-failed");
    await payment(head).getByRole("button", { name: "Send ₦300,000.00 again" }).click();
    const asked = await confirmation(head, `Send ₦300,000.00 again for claim ${claimNo}?`, width, name, "send-again");
    await expect(asked).toContainText(`${GTBANK}, ${FAILS}`);
    await expect(asked).toContainText("Dormant account");
    await asked.getByRole("button", { name: "Send ₦300,000.00", exact: true }).click();
    await expect(
      status(head, /^₦300,000\.00 is sent again \(transfer [a-z0-9-]+\), but the bank refused the transfer \(Dormant account\): nothing was paid\.$/),
    ).toBeVisible();
    await expect(payment(head)).toContainText("Failed: nothing was paid");
    await step(head, width, name, "sent-again");

    // The partner gives another account: voucher version 2 names it, accepted again, and the bank pays.
    await page.reload();
    await page.getByLabel("Bank", { exact: true }).selectOption({ label: GTBANK });
    await page.getByLabel("Account number", { exact: true }).fill(PAYS);
    await page.getByRole("button", { name: "Change the account" }).click();
    await expect(status(page, "The account is saved: discharge voucher version 2 names it.")).toBeVisible();
    await expect(payment(page).getByRole("heading", { name: "Discharge voucher, version 2" })).toBeVisible();
    // The refused payout was the old account's: it says so, and no longer asks for another account.
    await expect(payment(page)).toContainText(`to TUNDE BAKARE, ${GTBANK}, ${FAILS}`);
    await expect(payment(page)).not.toContainText("give another below");
    await expect(payment(page).getByRole("heading", { name: "The last payout, of voucher version 1" })).toBeVisible();
    await step(page, width, name, "voucher-2");
    await page.getByRole("button", { name: "Record the insured's acceptance of ₦300,000.00" }).click();
    const accept = await confirmation(page, `Record that Tunde Bakare accepts ₦300,000.00 for claim ${claimNo}?`, width, name, "accept-2");
    await expect(accept).toContainText(`${GTBANK}, ${PAYS}`);
    await accept.getByRole("button", { name: "Record the acceptance and pay ₦300,000.00" }).click();
    await expect(status(page, `claim ${claimNo} is paid`)).toBeVisible();
    await expect(payment(page)).toContainText("Paid: the bank confirmed the money arrived");
    await step(page, width, name, "paid-2");
    await head.context().close();
  });

  test(`a rejected claim: the reason chosen from the list, its letter downloaded from the partner's claim page (${name})`, async ({ page, browser }) => {
    test.setTimeout(600_000);
    const { demoPartner, operatorAdmin } = accounts();
    await page.setViewportSize(viewport);
    await command(page, demoPartner, "legacy", "set env_test");
    const claimNo = await claimMadeByApi(page, "Halima", "Yusuf", 150_000, "Paint scratched along the driver's side in a car park");
    const head = await signedIn(browser, viewport, operatorAdmin);
    await head.goto(`/admin/claims/${claimNo}`);
    await head.getByRole("button", { name: "Start the review" }).click();
    await expect(status(head, `${claimNo} is now in review`)).toBeVisible();
    await head.getByLabel("Reason for a rejection").selectOption({ label: "The cause of the loss is excluded by the policy" });
    await head.getByLabel(/^Note/).fill("Wear and scratches are excluded by the policy's section 4");
    await step(head, width, name, "reject");
    await head.getByRole("button", { name: "Reject", exact: true }).click();
    await expect(status(head, `Claim ${claimNo} is now rejected`)).toBeVisible();

    await signIn(page, demoPartner);
    await page.goto(`/portal/claims/${claimNo}`);
    await expect(page.locator("#claim .card").first()).toContainText("Rejected");
    await expect(page.locator("#claim .card").first()).toContainText("The cause of the loss is excluded by the policy");
    const letter = page.getByRole("region", { name: "Rejection letter" });
    await expect(letter.getByRole("link", { name: "Download the rejection letter (PDF)" })).toBeVisible();
    await expect(page.locator("#claim")).not.toContainText("The approved amount is set when the claim is approved");
    await step(page, width, name, "rejected");
    expect(await downloadPdf(page, "Download the rejection letter (PDF)")).toBe(`claim-rejection-${claimNo}.pdf`);
    await head.context().close();
  });
}
