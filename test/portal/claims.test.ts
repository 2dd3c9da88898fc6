import { describe, expect, test } from "bun:test";
import { escapeHtml } from "@kitajs/html";
import { inWords } from "../../src/portal/words";
import { PDF_BASE64, PNG_BASE64, type TestPartner, testApp } from "../support/harness";
import { approvedPolicy, watDate } from "../support/policies";
import { type Browser, confirmStepFields, signedIn } from "./browser";

const t = await testApp();
const operator = await t.partner({ admin: true });

/** An approved test-mode policy of `p` (phone cover by default: claims up to ₦200,000). */
const insured = (p: TestPartner, code = "phnn-flx1-1111") => approvedPolicy(p, code);

const claimForm = (policy: string, overrides: Record<string, string | Blob> = {}): Record<string, string | Blob> => ({
  policy,
  incidentDate: watDate(0),
  description: "Screen cracked after the phone fell on a tiled floor",
  amount: "45,000",
  ...overrides,
});

const png = (name: string) => new File([Buffer.from(PNG_BASE64, "base64")], name, { type: "image/png" });
const pdf = (name: string) => new File([Buffer.from(PDF_BASE64, "base64")], name, { type: "application/pdf" });

/** The claim number a submission redirected to. */
const claimNoOf = (location: string | null) => /\/portal\/claims\/(CLM-\d{4}-[0-9A-Z]{10})$/.exec(location ?? "")?.[1];

async function submitted(b: Browser, policy: string, overrides: Record<string, string | Blob> = {}) {
  await b.get(`/portal/claims/new?policy=${policy}`);
  const answer = await b.post("/portal/claims", claimForm(policy, overrides));
  expect(answer.status).toBe(303);
  const claimNo = claimNoOf(answer.location);
  expect(claimNo).toBeDefined();
  return claimNo!;
}

/** The raw bytes of a download, with the browser's session. */
async function download(b: Browser, path: string) {
  const response = await t.app.handle(new Request(`http://localhost${path}`, { headers: { cookie: `session=${b.cookie("session")}` } }));
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const escaped = (message: string) => escapeHtml(message);

describe("partner claim pages", () => {
  test("a claim made from the policy page with documents: the detail lists them, they download byte for byte, the JSON surface sees the same claim", async () => {
    const p = await t.partner();
    const policy = await insured(p);
    const b = await signedIn(t, p.portal);
    const policyPage = await b.get(`/portal/policies/${policy}`);
    expect(policyPage.text).toContain(`href="/portal/claims/new?policy=${policy}"`);
    const form = await b.get(`/portal/claims/new?policy=${policy}`);
    expect(form.text).toContain(`value="${policy}"`);
    expect(form.text).toContain('<label for="f-document1">');

    const answer = await b.post(
      "/portal/claims",
      claimForm(policy, { reference: "acme-claim-1", document1: png("cracked screen.png"), document3: pdf("receipt.pdf") }),
    );
    expect(answer.status).toBe(303);
    const claimNo = claimNoOf(answer.location)!;
    expect(claimNo).toBeDefined();

    const detail = await b.get(answer.location!);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain("Submitted");
    expect(detail.text).toContain("₦45,000.00");
    expect(detail.text).toContain("cracked screen.png");
    expect(detail.text).toContain("receipt.pdf");
    expect(detail.text).toContain(`href="/portal/claims/${claimNo}/documents/1"`);
    expect(detail.text).toContain(`href="/portal/claims/${claimNo}/documents/2"`);
    expect(detail.text).toContain("Withdraw the claim");

    const image = await download(b, `/portal/claims/${claimNo}/documents/1`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("content-disposition")).toContain('filename="cracked screen.png"');
    expect(image.bytes.equals(Buffer.from(PNG_BASE64, "base64"))).toBe(true);
    const receipt = await download(b, `/portal/claims/${claimNo}/documents/2`);
    expect(receipt.headers.get("content-type")).toBe("application/pdf");
    expect(receipt.bytes.equals(Buffer.from(PDF_BASE64, "base64"))).toBe(true);
    expect((await download(b, `/portal/claims/${claimNo}/documents/3`)).status).toBe(404);

    const status = await p.run("claim status", { claimNo });
    expect(status).toMatchObject({ claimNo, reference: "acme-claim-1", policy, status: "submitted", amount: 45_000, incidentDate: watDate(0) });
    expect(status.documents.map((d: any) => [d.name, d.type])).toEqual([
      ["cracked screen.png", "png"],
      ["receipt.pdf", "pdf"],
    ]);

    // The operator downloads the same bytes; another partner finds nothing at all.
    const admin = await signedIn(t, operator.portal);
    const adminCopy = await download(admin, `/admin/claims/${claimNo}/documents/1`);
    expect(adminCopy.status).toBe(200);
    expect(adminCopy.bytes.equals(image.bytes)).toBe(true);
    const other = await signedIn(t, (await t.partner()).portal);
    expect((await other.get(`/portal/claims/${claimNo}`)).status).toBe(404);
    expect((await download(other, `/portal/claims/${claimNo}/documents/1`)).status).toBe(404);
    expect((await other.get("/portal/claims")).text).not.toContain(claimNo);
    expect((await other.post(`/portal/claims/${claimNo}/withdraw`, {})).status).toBe(404);
    expect((await p.run("claim status", { claimNo })).status).toBe("submitted");
  });

  test("refusals are shown next to their field in the JSON surface's words, keep what was typed and store nothing", async () => {
    const p = await t.partner();
    const policy = await insured(p);
    const b = await signedIn(t, p.portal);
    await b.get(`/portal/claims/new?policy=${policy}`);

    const tooMuch = await b.post("/portal/claims", claimForm(policy, { amount: "200,000.01", description: "Phone stolen at Oshodi market" }));
    const json = await p.run("claim submit", { policy, incidentDate: watDate(0), description: "Phone stolen at Oshodi market", amount: 200_000.01 });
    expect(json.exctnFdbck).toMatchObject({ id: 55, id_v4: 400 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toContain('id="f-amount-error"');
    expect(tooMuch.text).toContain(escaped(inWords(json.exctnFdbck.elbrtn)));
    expect(tooMuch.text).toContain("Phone stolen at Oshodi market");
    expect(tooMuch.text).toContain('value="200,000.01"');

    const future = await b.post("/portal/claims", claimForm(policy, { incidentDate: watDate(2) }));
    expect(future.status).toBe(400);
    expect(future.text).toContain('id="f-incidentDate-error"');
    expect(future.text).toContain(inWords("seed.incidentDate must not be in the future"));

    const blank = await b.post("/portal/claims", claimForm(policy, { description: "   " }));
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('id="f-description-error"');
    expect(blank.text).toContain(inWords("seed.description is required"));

    const notANumber = await b.post("/portal/claims", claimForm(policy, { amount: "forty thousand" }));
    expect(notANumber.text).toContain('id="f-amount-error"');
    expect(notANumber.text).toContain(inWords("seed.amount must be a JSON number"));

    const unknown = await b.post("/portal/claims", claimForm(crypto.randomUUID()));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('id="f-policy-error"');
    expect(unknown.text).toContain(escaped("among this partner's transactions"));

    // A file that is not a document: the refusal sits beside the input it was chosen in (the second here).
    const notAnImage = await b.post(
      "/portal/claims",
      claimForm(policy, { document1: png("ok.png"), document2: new File(["just text"], "notes.png", { type: "image/png" }) }),
    );
    expect(notAnImage.status).toBe(415);
    expect(notAnImage.text).toContain('id="f-document2-error"');
    expect(notAnImage.text).toContain("must be a JPEG, PNG, WebP image or a PDF document");
    expect(notAnImage.text).toContain("choose the documents again");

    expect((await p.run("claim list")).list).toHaveLength(0);
  });

  test("the list filters by status and policy, pages with Show more, and refuses a filter with the JSON surface's words", async () => {
    const p = await t.partner();
    const [first, second] = [await insured(p), await insured(p)];
    for (let i = 0; i < 26; i++)
      expect((await p.run("claim submit", { policy: first, incidentDate: watDate(0), description: `Claim ${i}`, amount: 1000 + i })).exctnFdbck.id).toBe(75);
    const b = await signedIn(t, p.portal);
    const lone = await submitted(b, second, { amount: "5000" });
    await b.post(`/portal/claims/${lone}/withdraw`, { note: "found the phone" });

    const list = await b.get("/portal/claims");
    expect(list.status).toBe(200);
    expect(list.text).toContain('<th scope="col">Claim</th>');
    expect(list.text.match(/href="\/portal\/claims\/CLM-/g)).toHaveLength(25);
    const more = /hx-get="([^"]+)"/.exec(list.text)?.[1]?.replaceAll("&amp;", "&");
    expect(more).toContain("rows=1");
    const rest = await b.get(more!, { "hx-request": "true" });
    expect(rest.text).not.toContain("<html");
    expect(rest.text.match(/href="\/portal\/claims\/CLM-/g)).toHaveLength(2);
    expect(rest.text).not.toContain("Show more");

    const withdrawn = await b.get("/portal/claims?status=withdrawn");
    expect(withdrawn.text).toContain(lone);
    expect(withdrawn.text.match(/href="\/portal\/claims\/CLM-/g)).toHaveLength(1);
    const byPolicy = await b.get(`/portal/claims?policy=${second}`);
    expect(byPolicy.text).toContain(lone);
    expect(byPolicy.text.match(/href="\/portal\/claims\/CLM-/g)).toHaveLength(1);
    expect((await b.get(`/portal/claims?policy=${first}&status=withdrawn`)).text).toContain("No claims match these filters.");

    const foreign = await b.get(`/portal/claims?policy=${crypto.randomUUID()}`);
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain('id="f-policy-error"');
    expect(foreign.text).toContain(inWords("seed.policy: no policy"));
    const backwards = await b.get(`/portal/claims?from=${watDate(0)}&to=${watDate(-3)}`);
    expect(backwards.text).toContain('id="f-to-error"');
    expect(backwards.text).toContain(inWords("seed.to must not be before seed.from"));
    expect(backwards.text).toContain(`value="${watDate(-3)}"`);
  });

  test("hostile text in a claim is shown escaped on the partner's and the operator's pages", async () => {
    const p = await t.partner({ name: `<b>Evil</b> & Co "${crypto.randomUUID().slice(0, 4)}"` });
    const policy = await insured(p);
    const b = await signedIn(t, p.portal);
    const hostile = `<script>alert("x")</script>`;
    const claimNo = await submitted(b, policy, { description: `Stolen ${hostile}`, document1: png(`<img src=x onerror=alert(1)>.png`) });
    await b.post(`/portal/claims/${claimNo}/withdraw`, { note: `<iframe src="javascript:alert(2)">` });
    const admin = await signedIn(t, operator.portal);
    for (const page of [await b.get(`/portal/claims/${claimNo}`), await admin.get(`/admin/claims/${claimNo}`), await admin.get("/admin/claims")]) {
      expect(page.status).toBe(200);
      for (const raw of ["<script>alert", "<img src=x", "<iframe", "<b>Evil</b>"]) expect(page.text).not.toContain(raw);
    }
    const detail = await admin.get(`/admin/claims/${claimNo}`);
    expect(detail.text).toContain(escaped(`Stolen ${hostile}`));
    expect(detail.text).toContain(escaped(`<img src=x onerror=alert(1)>.png`));
    expect(detail.text).toContain(escaped(p.name));
  });

  test("withdraw with a note: the section updates itself; a second withdraw is refused by the state machine", async () => {
    const p = await t.partner();
    const policy = await insured(p);
    const b = await signedIn(t, p.portal);
    const claimNo = await submitted(b, policy);
    const done = await b.post(`/portal/claims/${claimNo}/withdraw`, { note: "repaired under warranty" }, { "hx-request": "true" });
    expect(done.status).toBe(200);
    expect(done.text).not.toContain("<html");
    expect(done.text).toContain('role="status"');
    expect(done.text).toContain(`Claim ${claimNo} is withdrawn.`);
    expect(done.text).toContain("repaired under warranty");
    expect(done.text).not.toContain("Withdraw the claim");
    expect(await p.run("claim status", { claimNo })).toMatchObject({ status: "withdrawn", statusNote: "repaired under warranty" });

    const again = await b.post(`/portal/claims/${claimNo}/withdraw`, {}, { "hx-request": "true" });
    expect(again.status).toBe(409);
    expect(again.text).toContain(inWords(`claim ${claimNo} is withdrawn, a final status: it cannot become withdrawn`));
    expect((await p.run("claim status", { claimNo })).history).toHaveLength(2);

    const long = await submitted(b, policy);
    const tooLong = await b.post(`/portal/claims/${long}/withdraw`, { note: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('id="f-note-error"');
    expect(tooLong.text).toContain(inWords("seed.note must be at most 500 characters"));
    expect((await p.run("claim status", { claimNo: long })).status).toBe("submitted");
  });
});

describe("claims adjudication", () => {
  test("a phone claim through the admin page: only the allowed moves, a refused move, approval with the 10% excess, paid; the partner sees the figures; the audit log says who", async () => {
    const p = await t.partner();
    const policy = await insured(p, "phnn-flx1-1111");
    const b = await signedIn(t, p.portal);
    const claimNo = await submitted(b, policy);
    const admin = await signedIn(t, operator.portal);

    const list = await admin.get("/admin/claims?status=submitted");
    expect(list.text).toContain(claimNo);
    expect(list.text).toContain(escaped(p.name));
    const page = await admin.get(`/admin/claims/${claimNo}`);
    expect(page.text).toContain('value="in_review"');
    expect(page.text).not.toContain('value="approved"');
    expect(page.text).not.toContain('value="paid"');

    const early = await admin.post(`/admin/claims/${claimNo}/review`, { status: "approved" }, { "hx-request": "true" });
    expect(early.status).toBe(409);
    expect(early.text).toContain(inWords(`claim ${claimNo} is submitted, so it cannot become approved`));

    const review = await admin.post(`/admin/claims/${claimNo}/review`, { status: "in_review", note: "assessor assigned" }, { "hx-request": "true" });
    expect(review.status).toBe(200);
    expect(review.text).toContain(`Claim ${claimNo} is now in review.`);
    expect(review.text).toContain('value="approved"');
    expect(review.text).toContain('value="rejected"');

    const noReason = await admin.post(`/admin/claims/${claimNo}/review`, { status: "rejected", note: "" }, { "hx-request": "true" });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('id="f-rejectionReason-error"');
    expect(noReason.text).toContain(inWords("seed.rejectionReason is required to reject"));
    expect(noReason.text).toContain("The loss is not covered by the terms of the policy"); // the reasons, in words

    const tooMuch = await admin.post(`/admin/claims/${claimNo}/review`, { status: "approved", approvedAmount: "45,000.01" }, { "hx-request": "true" });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.text).toContain('id="f-approvedAmount-error"');
    expect(tooMuch.text).toContain(inWords("seed.approvedAmount must be at most the amount claimed"));
    expect(tooMuch.text).toContain('value="45,000.01"');

    // Approving settles money: asked first, naming the claim, the amounts and what is payable; nothing changes until confirmed.
    const asked = await admin.post(`/admin/claims/${claimNo}/review`, { status: "approved", approvedAmount: "40,000.55" }, { "hx-request": "true" });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain(`Approve claim ${claimNo} for ₦36,000.49 payable?`);
    for (const line of ["<dt>Approved</dt><dd>₦40,000.55</dd>", "<dt>Excess (10%)</dt><dd>₦4,000.06</dd>", "<dt>Payable</dt><dd>₦36,000.49</dd>"])
      expect(asked.text).toContain(line);
    expect(asked.text).toContain("Approve ₦36,000.49 payable");
    expect(await p.run("claim status", { claimNo })).toMatchObject({ status: "in_review" });
    // A token that is not the step's (or an amount changed since) is asked again, not done.
    const changed = { ...confirmStepFields(asked.text)!.fields, approvedAmount: "45,000" };
    expect((await admin.post(`/admin/claims/${claimNo}/review`, changed, { "hx-request": "true" })).text).toContain("Approve ₦40,500.00 payable");
    expect(await p.run("claim status", { claimNo })).toMatchObject({ status: "in_review" });
    const { answer: approved } = await admin.postConfirmed(
      `/admin/claims/${claimNo}/review`,
      { status: "approved", approvedAmount: "40,000.55" },
      { "hx-request": "true" },
    );
    expect(approved.status).toBe(200);
    expect(approved.text).toContain("approved ₦40,000.55, excess ₦4,000.06, payable ₦36,000.49");
    expect(approved.text).not.toContain('value="paid"'); // paid only on the payout provider's word
    expect(approved.text).toContain("The discharge voucher is issued once the account to pay into is given.");
    expect(await p.run("claim status", { claimNo })).toMatchObject({ status: "approved", approvedAmount: 40_000.55, excess: 4_000.06, payable: 36_000.49 });

    const partnerView = await b.get(`/portal/claims/${claimNo}`);
    for (const figure of ["₦45,000.00", "₦40,000.55", "₦4,000.06", "₦36,000.49"]) expect(partnerView.text).toContain(figure);
    expect(partnerView.text).toContain("Approved");
    expect(partnerView.text).not.toContain("Withdraw the claim");
    expect(partnerView.text).not.toContain(operator.portal.email); // who decided stays with the operator

    // The partner gives the account: the bank's name for it matches the insured's, so the voucher is issued.
    const account = await b.post(`/portal/claims/${claimNo}/payee`, { bankCode: "058", accountNumber: "0123 456 780" }, { "hx-request": "true" });
    expect(account.status).toBe(200);
    expect(account.text).toContain("The account is saved: discharge voucher version 1 names it.");
    expect(account.text).toContain(escaped("The bank's name for the account matches the insured's"));
    expect(account.text).toContain("Discharge voucher, version 1");
    const voucherPdf = await b.get(`/portal/claims/${claimNo}/voucher/1.pdf`);
    expect(voucherPdf.status).toBe(200);
    expect(voucherPdf.headers.get("content-type")).toBe("application/pdf");
    // Recording the acceptance sends money: asked first, naming the amount and the account.
    const { step: acceptStep, answer: paid } = await b.postConfirmed(`/portal/claims/${claimNo}/accept`, { version: "1" }, { "hx-request": "true" });
    expect(acceptStep!.text).toContain(`accepts ₦36,000.49 for claim ${claimNo}?`);
    expect(acceptStep!.text).toContain("Guaranty Trust Bank (GTBank), 0123456780");
    expect(paid.text).toContain(`the bank confirmed the payment: claim ${claimNo} is paid`);
    expect(paid.text).toContain("Paid: the bank confirmed the money arrived");
    const operatorView = await admin.get(`/admin/claims/${claimNo}`);
    expect(operatorView.text).toContain("Accepted");
    expect(operatorView.text).toContain(escaped("in the partner's portal"));

    const audit = await admin.get("/admin/audit");
    expect(audit.text).toContain("Claim reviewed");
    expect(audit.text).toContain(claimNo);
  });

  test("the operator's claim page says whose claim it is: the insured, their phone, the policy number linked, the product in words, the excess only where the product keeps one", async () => {
    const p = await t.partner();
    const policy = await insured(p, "vhcl-tprt-1111");
    const b = await signedIn(t, p.portal);
    const claimNo = await submitted(b, policy, { description: "Rear bumper hit at a junction" });
    // The partner's one consumer so far, the insured.
    const consumer = (await p.run("dump entt_*CSTMRS")).list[0].id as string;
    const policyNo = (await p.run(`dump entt_${consumer}|insr_vhcl-tprt-1111-${policy}*STATUS`)).policyNo as string;
    expect(policyNo).toBeTruthy();
    const admin = await signedIn(t, operator.portal);
    const page = (await admin.get(`/admin/claims/${claimNo}`)).text;
    expect(page).toContain(`<dt>Insured</dt><dd><a href="/admin/consumers/${consumer}">Adaeze Okafor</a></dd>`);
    expect(page).toContain('<dt>Phone</dt><dd><a href="tel:+2348031234567">+2348031234567</a></dd>');
    expect(page).toMatch(new RegExp(`<dt>Policy number</dt><dd><a href="/admin/policies/[0-9a-f-]{36}">${policyNo}</a>`));
    expect(page).toContain(`<dt>Policy reference</dt><dd>${policy}</dd>`);
    expect(page).toContain("Vehicle, third-party");
    expect(page).not.toContain("(vhcl-tprt-1111)");
    // Third-party vehicle cover keeps no excess: no excess line, no phone's 10%.
    expect(page).not.toContain("10% on phone cover");
    expect(page).not.toContain('<th scope="row">Excess');
    expect(page).toContain("this product keeps no excess, so all of it is payable");
    await admin.post(`/admin/claims/${claimNo}/review`, { status: "in_review" }, { "hx-request": "true" });
    const deciding = await admin.get(`/admin/claims/${claimNo}`);
    expect(deciding.text).not.toContain("The excess");
    const { step, answer: approved } = await admin.postConfirmed(`/admin/claims/${claimNo}/review`, { status: "approved" }, { "hx-request": "true" });
    expect(step!.text).not.toContain("Excess");
    expect(approved.text).toContain(`Claim ${claimNo} is now approved: approved ₦45,000.00, payable ₦45,000.00.`);
    // The partner's page names the same insured and policy number, linked to its own pages.
    const partnerPage = (await b.get(`/portal/claims/${claimNo}`)).text;
    expect(partnerPage).toContain(`<a href="/portal/consumers/${consumer}">Adaeze Okafor</a>`);
    expect(partnerPage).toContain(`<a href="/portal/policies/${policy}">${policyNo}</a>`);
    expect(partnerPage).not.toContain("(vhcl-tprt-1111)");

    // A phone claim: the product keeps 10%, which the page says before and after approval.
    const phone = await submitted(b, await insured(p, "phnn-flx1-1111"));
    const phonePage = (await admin.get(`/admin/claims/${phone}`)).text;
    expect(phonePage).toContain('<th scope="row">Excess (10%)</th>');
    expect(phonePage).toContain("The approved amount, the excess (10% of it) and what is payable are set when the claim is approved.");
    expect(phonePage).not.toContain("(phnn-flx1-1111)");
  });

  test("who may open what: partners get 403 on the operator's pages, the operator 403 on partner pages, and no form works without its CSRF token", async () => {
    const p = await t.partner();
    const policy = await insured(p);
    const b = await signedIn(t, p.portal);
    const claimNo = await submitted(b, policy);
    const admin = await signedIn(t, operator.portal);

    for (const path of ["/admin/claims", `/admin/claims/${claimNo}`, `/admin/claims/${claimNo}/documents/1`]) expect((await b.get(path)).status).toBe(403);
    expect((await b.post(`/admin/claims/${claimNo}/review`, { status: "in_review" })).status).toBe(403);
    for (const path of ["/portal/claims", "/portal/claims/new", `/portal/claims/${claimNo}`]) expect((await admin.get(path)).status).toBe(403);

    expect((await b.post("/portal/claims", { ...claimForm(policy), _csrf: "" })).status).toBe(403);
    expect((await b.post(`/portal/claims/${claimNo}/withdraw`, { _csrf: "forged" })).status).toBe(403);
    expect((await admin.post(`/admin/claims/${claimNo}/review`, { status: "in_review", _csrf: "" })).status).toBe(403);
    expect((await p.run("claim list")).list).toHaveLength(1);
    expect((await p.run("claim status", { claimNo })).status).toBe("submitted");
    expect((await admin.get(`/admin/claims/CLM-2026-0000000000`)).status).toBe(404);
    expect((await admin.get(`/admin/claims/not-a-claim`)).status).toBe(404);
  });
});
