/**
 * A policy that was approved keeps its number and certificate once it is no longer in force
 * (docs/lifecycle.md): STATUS, the hosted certificate link and the portal's policy page of a
 * cancelled, expired or lapsed policy, through the real surfaces.
 */
import { describe, expect, test } from "bun:test";
import { expireEndedPolicies } from "../src/modules/lifecycle/expiry";
import { pdfText } from "./certificates/parse";
import { signedIn } from "./portal/browser";
import { testApp } from "./support/harness";
import { lifecycleHelpers } from "./support/lifecycle";
import { watDate } from "./support/policies";

const t = await testApp();
const db = t.database.db;
const operator = await t.partner({ admin: true });
const { approved, endingIn, livePartner } = lifecycleHelpers(t, operator);

/** The hosted certificate behind a certUrl, as anyone holding the link gets it. */
const hosted = (certUrl: string) => t.app.handle(new Request(`http://localhost${new URL(certUrl).pathname}`));

describe("STATUS of a policy no longer in force", () => {
  test("cancelled: the number and certificate link it had while approved; the certificate says it is cancelled, on the link and on the portal", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const before = await policy.status();
    // Matched as a copy: bun's toMatchObject writes its matchers into the object it checks.
    expect({ ...before }).toMatchObject({ status: "a", policyNo: expect.stringMatching(/^TST-/), certUrl: expect.any(String), crtfctType: "pdf" });

    expect((await policy.cancel({ effectiveDate: watDate(5) })).status).toBe("c");
    const after = await policy.status();
    expect({ ...after }).toMatchObject({
      exctnFdbck: { id: 75, id_v4: 200 },
      status: "c",
      statusNote: expect.stringContaining(`Cancelled from ${watDate(5)}`),
      policyNo: before.policyNo,
      certUrl: before.certUrl,
      crtfctType: "pdf",
    });

    const link = await hosted(after.certUrl);
    expect(link.status).toBe(200);
    expect(link.headers.get("content-type")).toBe("application/pdf");
    const { text } = await pdfText(new Uint8Array(await link.arrayBuffer()));
    expect(text).toContain(before.policyNo);
    expect(text).toContain("CANCELLED from");

    const b = await signedIn(t, p.portal);
    const page = await b.get(`/portal/policies/${policy.reference}`);
    expect(page.text).toContain("Cancelled");
    expect(page.text).toContain(before.policyNo);
    expect(page.text).toContain("Download the certificate");
    expect(page.text).toContain(`href="${after.certUrl}"`);
    const download = await b.get(`/portal/policies/${policy.reference}/certificate`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/pdf");
  });

  test("cancelled, live, of a product whose certificate travels inline: the number and the certificate itself, which says it is cancelled", async () => {
    const p = await livePartner();
    const policy = await approved(p, "crlt-psnl-1111", "live");
    const before = await policy.status();
    expect({ ...before }).toMatchObject({ status: "a", policyNo: expect.stringMatching(/^POL-/), crtfct: expect.any(String), crtfctType: "pdf" });
    expect(before).not.toHaveProperty("certUrl");

    expect((await policy.cancel({ reason: "loan_repaid" })).status).toBe("c");
    const after = await policy.status();
    expect({ ...after }).toMatchObject({ status: "c", policyNo: before.policyNo, crtfct: expect.any(String), crtfctType: "pdf" });
    expect(after).not.toHaveProperty("certUrl");
    const { text } = await pdfText(new Uint8Array(Buffer.from(after.crtfct, "base64")));
    expect(text).toContain(before.policyNo);
    expect(text).toContain("CANCELLED from");
  });

  test("expired: the number and the certificate as issued, on the link and on the portal", async () => {
    const p = await t.partner();
    const policy = await approved(p, "gtrn-stnd-1111");
    const before = await policy.status();
    const issued = new Uint8Array(await (await hosted(before.certUrl)).arrayBuffer());
    await endingIn(policy.row, -0.5, true);
    expect(await expireEndedPolicies(db, new Date())).toBeGreaterThanOrEqual(1);

    const after = await policy.status();
    expect(after).toMatchObject({ status: "e", policyNo: before.policyNo, certUrl: before.certUrl, crtfctType: "pdf" });
    const link = await hosted(after.certUrl);
    expect(link.status).toBe(200);
    // The stored certificate: the same document as while the policy was in force.
    expect(new Uint8Array(await link.arrayBuffer())).toEqual(issued);

    const b = await signedIn(t, p.portal);
    const page = await b.get(`/portal/policies/${policy.reference}`);
    expect(page.text).toContain("Expired");
    expect(page.text).toContain(before.policyNo);
    expect(page.text).toContain(`href="${after.certUrl}"`);
    expect((await b.get(`/portal/policies/${policy.reference}/certificate`)).status).toBe(200);
  });

  test("lapsed: the number stays, without a certificate of cover it no longer gives (the link answers 404 until it is reinstated)", async () => {
    const p = await t.partner();
    const policy = await approved(p);
    const before = await policy.status();
    const plan = await p.run("payment financeLoan", {
      policy: policy.reference,
      downPayment: 0,
      installments: 2,
      frequency: "weekly",
      firstDueDate: watDate(),
      graceDays: 0,
    });
    expect(plan.exctnFdbck.id).toBe(75);
    const run = await operator.run("payment runLapse", { asOf: watDate(1) });
    expect(run.lapsed.map((l: { planNo: string }) => l.planNo)).toContain(plan.planNo);

    const lapsed = await policy.status();
    expect(lapsed).toMatchObject({ status: "l", policyNo: before.policyNo });
    expect(lapsed).not.toHaveProperty("certUrl");
    expect(lapsed).not.toHaveProperty("crtfct");
    expect((await hosted(before.certUrl)).status).toBe(404);

    expect((await p.run(`rinst ${policy.address}`, { id: crypto.randomUUID() })).status).toBe("a");
    expect(await policy.status()).toMatchObject({ status: "a", policyNo: before.policyNo, certUrl: before.certUrl });
    expect((await hosted(before.certUrl)).status).toBe(200);
  });
});
