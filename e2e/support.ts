import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, test as base, expect, type Page } from "@playwright/test";
import { type Account, accounts, E2E_MAIL_PORT, type E2eMail } from "./server";

export { expect };

/**
 * The specs' `test`: a test fails when any page it opened logged a console error or threw an
 * uncaught error (a CSP violation, a resource that did not load, an htmx error), in its own context
 * and in every context it opens with `browser.newContext()`. Checked at the end of the test, so
 * every message is listed at once. A test that provokes one on purpose names it in
 * `allowedBrowserErrors` (matched against the whole line, which says where the error came from).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: Playwright's idiom for a fixture that gives nothing (it runs around each test)
export const test = base.extend<{ allowedBrowserErrors: RegExp[]; browserErrors: void }>({
  allowedBrowserErrors: [[], { option: true }],
  browserErrors: [
    async ({ context, browser, allowedBrowserErrors }, use) => {
      const errors: string[] = [];
      const watch = (watched: BrowserContext) => {
        watched.on("console", (message) => {
          if (message.type() === "error")
            errors.push(`console error on ${message.page()?.url() ?? "?"} from ${message.location().url || "?"}: ${message.text()}`);
        });
        watched.on("weberror", (error) => errors.push(`uncaught error on ${error.page()?.url() ?? "?"}: ${error.error().message}`));
      };
      watch(context);
      // Playwright has no event for a new context: wrap the browser's method for this test, then put it back.
      const newContext = browser.newContext;
      browser.newContext = async (...options) => {
        const opened = await newContext.apply(browser, options);
        watch(opened);
        return opened;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
      }
      const unexpected = errors.filter((line) => !allowedBrowserErrors.some((allowed) => allowed.test(line)));
      expect(unexpected, "console errors and uncaught errors in the browser").toEqual([]);
    },
    { auto: true },
  ],
});

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

/** Nothing on the page is wider than the screen: a wide table scrolls inside its own box. */
export async function expectNoSidewaysScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `page width at a ${width} px screen`).toBeLessThanOrEqual(width);
}

/** Visit, check accessibility, keep a screenshot. */
export async function visit(page: Page, path: string, name: string) {
  await page.goto(path);
  await expectAccessible(page);
  await screenshot(page, name);
}

/** A command on the JSON surface with one of the account's keys, as a partner's system sends it. */
export async function command(page: Page, account: Account, label: "test" | "live" | "legacy", cmmnd: string, seed?: unknown) {
  const response = await page.request.post("/", {
    data: { userInfo: { id: account.partnerId, athrzt: account.keys[label] }, cmmnd: seed === undefined ? { cmmnd } : { cmmnd, seed } },
  });
  const answer = await response.json();
  // A refusal here is the spec's set-up going wrong: say so at once, not as a missing record later.
  expect(answer.exctnFdbck, `${cmmnd}: ${answer.exctnFdbck?.elbrtn ?? ""}`).toMatchObject({ id: 75 });
  return answer;
}

/** The vehicle inputs of the quote form, by label. */
export const VEHICLE_FORM = {
  Make: "Toyota",
  Model: "Camry",
  "Year of manufacture": "2019",
  "Chassis number / VIN": "4T1B11HK5KU123456",
  "Engine number": "A25A1234567",
  "Registration plate": "LND123AB",
};

/** Today in Nigeria (WAT), as YYYY-MM-DD. */
export const watDate = () => new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);

/** A live marine import policy of a fully documented consumer: the insurer's underwriters review it by hand. */
export async function pendingMarinePolicy(page: Page) {
  const { demoPartner } = accounts();
  await command(page, demoPartner, "live", "wallet topup", { amount: 1_000_000, reference: `desk-${crypto.randomUUID()}` });
  const email = `bola.${crypto.randomUUID().slice(0, 8)}@example.ng`;
  const consumer = await command(page, demoPartner, "live", "prfl entity", {
    type: "s",
    class: "h",
    name: { first: "Bola", last: "Ige" },
    gender: "m",
    dob: { date: "1979-03-02" },
    addrss: { addrss: "9 Broad Street, Lagos" },
    phoneNo: "+2348091234567",
    eMail: email,
    socialID: { type: "nidd", id: "12345678901", image: PNG.toString("base64") },
    taxId: "TIN-0012345",
  });
  await command(page, demoPartner, "live", "dump ipck_mrnn-stnd-1111*PRMM", { goodsValue: 5_000_000, insrncDrtn: "3m" });
  const policy = await command(page, demoPartner, "live", `entt_${consumer.id}: insure`, {
    ctgry: "mrnn",
    type: "stnd",
    pckg: "1111",
    id: crypto.randomUUID(),
    insrncDrtn: "3m",
    addtnlFact: {
      items: [{ description: "Cashew nuts", quantity: 100, value: 5_000_000 }],
      goodsValue: 5_000_000,
      goodsDscrptn: "Agricultural produce",
      voyage: [{ origin: "Lagos" }, { destination: "Rotterdam" }],
      proformaInvoice: "PI-2026-0042",
      proformaDate: watDate(),
    },
  });
  expect(policy.status).toBe("p");
  const status = async () => (await command(page, demoPartner, "live", `dump entt_${consumer.id}|insr_mrnn-stnd-1111-${policy.id}*STATUS`)).status;
  return { reference: policy.id as string, consumerId: consumer.id as string, email, status };
}

/**
 * The e-mail the app sent to `to` (the newest, once at least `count` have arrived), from the e2e
 * server's SMTP server; `links` are the URLs in its text, for a spec to open. Waits up to `timeoutMs`
 * (the delivery job runs every WORKER_INTERVAL_MS).
 */
export async function readMail(to: string, options: { count?: number; timeoutMs?: number } = {}): Promise<E2eMail & { links: string[] }> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const mails: E2eMail[] = await (await fetch(`http://127.0.0.1:${E2E_MAIL_PORT}/mail?to=${encodeURIComponent(to)}`)).json();
    const mail = mails.length >= (options.count ?? 1) ? mails.at(-1) : undefined;
    if (mail) return { ...mail, links: [...mail.text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]) };
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} arrived within ${options.timeoutMs ?? 15_000} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The path of the reset link in the newest "Reset your password" e-mail to `email`, once the delivery job has sent it. */
export async function readResetLink(email: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const mail = await readMail(email, { timeoutMs: Math.max(1, deadline - Date.now()) });
    const link = /reset your/i.test(mail.subject) ? mail.links.find((l) => /\/reset\/[\w-]+$/.test(l)) : undefined;
    if (link) return new URL(link).pathname;
    if (Date.now() > deadline) throw new Error(`no reset e-mail to ${email} arrived within 20 s (the newest: ${mail.subject})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
