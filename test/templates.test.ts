import { describe, expect, test } from "bun:test";
import { and, desc, eq } from "drizzle-orm";
import { auditLog } from "../src/modules/audit/schema";
import { consumers } from "../src/modules/consumers/schema";
import { messages } from "../src/modules/messages/schema";
import { NOTICES, noticeFor, noticeOf, TEMPLATE_FORMS } from "../src/modules/notices/catalogue";
import { checkTemplate, fillHtml, MAX_SMS_CHARS, smsLength } from "../src/modules/notices/render";
import { noticeTemplates } from "../src/modules/notices/schema";
import { signedIn } from "./portal/browser";
import { PNG_BASE64, testApp } from "./support/harness";
import { fullConsumer } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const issued = noticeOf("policy.issued")!;

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return { message: (error as Error).message, field: (error as { field?: string }).field };
  }
  return null;
};

describe("templates", () => {
  test("every default template uses only its notice's variables and fits its limits", () => {
    for (const notice of NOTICES) for (const form of TEMPLATE_FORMS) expect(refusal(() => checkTemplate(notice, form, notice.defaults[form]))).toBeNull();
  });

  test("an unknown variable is refused, naming it and the ones the message may use", () => {
    const refused = refusal(() => checkTemplate(issued, "sms", { body: "Hi {{insuredName}}, claim {{claimNo}}" }));
    expect(refused!.field).toBe("body");
    expect(refused!.message).toStartWith("{{claimNo}} is not a variable of this message; it may use {{insuredName}}, {{partnerName}}");
    expect(refusal(() => checkTemplate(issued, "email", { subject: "{{nope}}", body: "ok" }))!.field).toBe("subject");
    expect(refusal(() => checkTemplate(issued, "sms", { body: "Hi {{insuredName}" }))!.message).toContain("unfinished variable");
    expect(refusal(() => checkTemplate(issued, "sms", { body: "x".repeat(MAX_SMS_CHARS + 1) }))!.message).toContain("too long");
    expect(refusal(() => checkTemplate(issued, "email", { subject: "", body: "x" }))!.message).toBe("The subject is required");
  });

  test("values are escaped in HTML, links only when they are web addresses", () => {
    const html = fillHtml("Dear {{insuredName}} <i>\n\n{{certificateLink}}", {
      insuredName: '<img src=x onerror="1">',
      certificateLink: "https://x.ng/c/1?a=1&b=2",
    });
    expect(html).toBe(
      '<p>Dear &#60;img src=x onerror=&#34;1&#34;&#62; &#60;i&#62;</p>\n<p><a href="https://x.ng/c/1?a=1&#38;b=2">https://x.ng/c/1?a=1&#38;b=2</a></p>',
    );
    expect(fillHtml("{{certificateLink}}", { certificateLink: "javascript:alert(1)" })).toBe("<p>javascript:alert(1)</p>");
  });

  test("SMS length in segments: GSM-7 160 or 153 a part, UCS-2 70 or 67", () => {
    expect(smsLength("a".repeat(160))).toEqual({ encoding: "GSM-7", characters: 160, segments: 1 });
    expect(smsLength("a".repeat(161))).toEqual({ encoding: "GSM-7", characters: 161, segments: 2 });
    expect(smsLength("a".repeat(306)).segments).toBe(2);
    expect(smsLength("a".repeat(307)).segments).toBe(3);
    // The extension table counts two.
    expect(smsLength("€".repeat(80))).toEqual({ encoding: "GSM-7", characters: 160, segments: 1 });
    expect(smsLength("₦".repeat(70))).toEqual({ encoding: "UCS-2", characters: 70, segments: 1 });
    expect(smsLength("₦".repeat(71))).toEqual({ encoding: "UCS-2", characters: 71, segments: 2 });
    expect(smsLength("₦".repeat(135)).segments).toBe(3);
  });

  test("which notice tells an event", () => {
    const of = (type: string, payload: Record<string, unknown> = {}) => noticeFor({ type, payload })?.key;
    expect(of("policy.approved")).toBe("policy.issued");
    expect(of("policy.expiring")).toBe("policy.expiring");
    expect(of("claim.submitted")).toBe("claim.received");
    expect(of("claim.updated", { status: "info_requested" })).toBe("claim.info_requested");
    expect(of("claim.updated", { status: "approved" })).toBe("claim.approved");
    expect(of("claim.updated", { status: "paid" })).toBe("claim.paid");
    expect(of("claim.updated", { status: "in_review" })).toBeUndefined();
    expect(of("claim.voucher_issued")).toBe("claim.voucher_issued");
    expect(of("complaint.resolved")).toBe("complaint.resolved");
    expect(of("financing.lapsed")).toBeUndefined(); // told by its policy.lapsed
    expect(of("wallet.credited")).toBeUndefined();
  });
});

describe("the Messages pages", () => {
  test("edit a template: live preview with segments, refusal beside the field, save (a version, an audit row), test send, reset", async () => {
    const p = await t.partner({ name: "Preview Partners" });
    const b = await signedIn(t, p.portal);
    const list = await b.get("/portal/message-settings");
    expect(list.status).toBe(200);
    expect(list.text).toContain("Policy issued");
    expect(list.text).toContain("Renewal reminder");
    expect(list.text).toContain("The service sends it");

    const editor = await b.get("/portal/message-settings/policy.issued/sms");
    expect(editor.status).toBe(200);
    expect(editor.text).toContain("{{certificateLink}}");
    expect(editor.text).toContain("The default text is in use.");

    const preview = await b.post(
      "/portal/message-settings/policy.issued/sms/preview",
      { body: "{{partnerName}}: {{policyNo}} is yours" },
      { "hx-request": "true" },
    );
    expect(preview.status).toBe(200);
    expect(preview.text).toContain("Preview Partners: POL-VHCL-2026-7G2K9QX4M1AB is yours");
    expect(preview.text).toContain("1 part");
    const long = await b.post("/portal/message-settings/policy.issued/sms/preview", { body: `₦ ${"x".repeat(100)}` }, { "hx-request": "true" });
    expect(long.text).toContain("2 parts");
    expect(long.text).toContain("special characters");

    const refused = await b.post("/portal/message-settings/policy.issued/sms", { body: "Hello {{claimNo}}" });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/id="f-body-error"[^>]*>[^<]*\{\{claimNo\}\} is not a variable/);
    expect(await db.select().from(noticeTemplates).where(eq(noticeTemplates.partnerId, p.partnerId))).toEqual([]);

    const saved = await b.post("/portal/message-settings/policy.issued/sms", { body: "{{partnerName}} covers you: {{policyNo}}" });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("Your own text is in use.");
    const versions = await db.select().from(noticeTemplates).where(eq(noticeTemplates.partnerId, p.partnerId));
    expect(versions.map((v) => [v.notice, v.form, v.body, v.savedBy])).toEqual([
      ["policy.issued", "sms", "{{partnerName}} covers you: {{policyNo}}", p.portal.email],
    ]);
    expect((await b.get("/portal/message-settings")).text).toMatch(/SMS<\/a> <span class="muted">edited/);

    const tested = await b.post("/portal/message-settings/policy.issued/email/test", {});
    expect(tested.text).toContain(`A test e-mail is on its way to ${p.portal.email}`);
    const [test] = await db
      .select()
      .from(messages)
      .where(and(eq(messages.partnerId, p.partnerId), eq(messages.kind, "template.test")));
    expect(test!.recipient).toBe(p.portal.email.toLowerCase());
    expect(test!.subject).toBe("[Test] Your policy POL-VHCL-2026-7G2K9QX4M1AB is ready");
    expect(test!.html).toContain("Preview Partners");
    // A second click in the same minute queues nothing more.
    await b.post("/portal/message-settings/policy.issued/email/test", {});
    expect(
      await db
        .select()
        .from(messages)
        .where(and(eq(messages.partnerId, p.partnerId), eq(messages.kind, "template.test"))),
    ).toHaveLength(1);

    const reset = await b.post("/portal/message-settings/policy.issued/sms/reset", {});
    expect(reset.text).toContain("The default text is in use.");
    expect(reset.text).toContain("Back to the default");
    const actions = (await db.select().from(auditLog).where(eq(auditLog.partnerId, p.partnerId)).orderBy(desc(auditLog.at))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["notice.template_save", "notice.test_send", "notice.template_reset"]));
  });

  test("who sends it: the partner's choice, shown on the list, audited once", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/message-settings");
    const chosen = await b.post("/portal/message-settings/policy.issued/sender/sms", { sender: "partner" });
    expect(chosen.status).toBe(200);
    expect(chosen.text).toContain("You send it");
    await b.post("/portal/message-settings/policy.issued/sender/sms", { sender: "partner" });
    const audited = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.partnerId, p.partnerId), eq(auditLog.action, "notice.sender_change")));
    expect(audited).toHaveLength(1);
    expect((await b.post("/portal/message-settings/policy.issued/sender/fax", { sender: "partner" })).status).toBe(404);
  });

  test("branding: saved and used in the preview; a bad colour or a logo that is not an image is refused beside its field", async () => {
    const p = await t.partner();
    const b = await signedIn(t, p.portal);
    await b.get("/portal/branding");
    const bad = await b.post("/portal/branding", { displayName: "Brand", colour: "red" });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="f-colour-error"[^>]*>[^<]*#rrggbb/);
    const notImage = await b.post("/portal/branding", { displayName: "Brand", logo: Buffer.from("%PDF-1.4 nope").toString("base64") });
    expect(notImage.status).toBe(415);
    const saved = await b.post("/portal/branding", { displayName: "Brand Name", colour: "#112233", supportPhone: "+234 800 111 2222", logo: PNG_BASE64 });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain(`/brand/${p.partnerId}/logo`);
    const preview = await b.post(
      "/portal/message-settings/policy.issued/email/preview",
      { subject: "Hi", body: "From {{partnerName}}" },
      { "hx-request": "true" },
    );
    expect(preview.text).toContain("Brand Name");
    expect(preview.text).toContain(`fill="#112233"`);
    expect(preview.text).toContain("+2348001112222");
  });

  test("the operator sees a partner's messages settings, without the partner's actions", async () => {
    const p = await t.partner({ name: "Looked At" });
    const admin = await t.partner({ admin: true });
    const b = await signedIn(t, admin.portal);
    const seen = await b.get(`/admin/partners/${p.partnerId}/message-settings`);
    expect(seen.status).toBe(200);
    expect(seen.text).toContain("Message templates of Looked At");
    expect(seen.text).not.toContain("We send it ourselves");
  });

  test("the consumer's contact preferences: shown and changed on their page", async () => {
    const p = await t.partner();
    const consumer = (await p.run("prfl entity", fullConsumer())).id as string;
    const b = await signedIn(t, p.portal);
    const shown = await b.get(`/portal/consumers/${consumer}`);
    expect(shown.text).toContain("Contact preferences");
    const refused = await b.post(`/portal/consumers/${consumer}/preferences`, { language: "fr" });
    expect(refused.status).toBe(400);
    const saved = await b.post(`/portal/consumers/${consumer}/preferences`, { remindersOff: "on", language: "pcm" });
    expect(saved.text).toContain("Preferences saved.");
    const [row] = await db.select().from(consumers).where(eq(consumers.partnerId, p.partnerId));
    expect([row!.remindersOff, row!.language]).toEqual([true, "pcm"]);
    expect((await b.get(`/portal/consumers/${consumer}`)).text).toMatch(/value="pcm" selected/);
  });
});
