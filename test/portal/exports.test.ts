/** Lists as CSV (issue 17, exports): what the filters select, every page, streamed; cells a spreadsheet would run as formulas kept as text. */
import { describe, expect, test } from "bun:test";
import { csvField, csvRecord } from "../../src/core/csv";
import { csvDownload } from "../../src/portal/export";
import { individual, testApp } from "../support/harness";
import { insureSeed, productCases } from "../support/policies";
import { signedIn } from "./browser";

const t = await testApp({ WEBHOOK_ALLOW_PRIVATE: "true" });
const operator = await t.partner({ admin: true });

/** Records of a CSV body (no quoted line breaks in these). */
const recordsOf = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");

describe("CSV fields", () => {
  test("quoted when they hold a comma, a quote or a line break; formulas kept as text; numbers as numbers", () => {
    expect(csvField("Okafor, Ada")).toBe('"Okafor, Ada"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    // Issue 36: a phone number or a signed number runs nothing, so it is written as it is (no apostrophe for spreadsheets to show).
    expect(csvField("+2348030000001")).toBe("+2348030000001");
    expect(csvField("-1500.50")).toBe("-1500.50");
    for (const formula of ["+1+1", "-2+3+cmd|' /C calc'!A0", "+cmd|' /C calc'!A0", "-", "+", "+2348030000001 ", "\t+234", "\r1"])
      expect(csvField(formula).replace(/^"/, "")).toStartWith("'");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField(-1500.5)).toBe("-1500.5");
    expect(csvField(null)).toBe("");
    expect(csvRecord(["a", 1, undefined])).toBe("a,1,\r\n");
  });
});

describe("streaming", () => {
  test("every page in order, the header first; a failure part-way fails the download instead of ending it early", async () => {
    const items = Array.from({ length: 2_345 }, (_, i) => i);
    const page = async (limit: number, cursor?: string) => {
      const from = Number(cursor ?? 0);
      const next = from + limit;
      return { items: items.slice(from, next), nextCursor: next < items.length ? String(next) : null };
    };
    const ok = await csvDownload({ filename: "n", columns: ["n"], page, rows: async (batch) => batch.map((n) => [n]) });
    expect(ok.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(ok.headers.get("content-disposition")).toBe('attachment; filename="n.csv"');
    expect(recordsOf(await ok.text())).toEqual(["n", ...items.map(String)]);

    let calls = 0;
    const failing = await csvDownload({
      filename: "n",
      columns: ["n"],
      page: async (limit, cursor) => {
        if (++calls === 3) throw new Error("connection lost");
        return page(limit, cursor);
      },
      rows: async (batch) => batch.map((n) => [n]),
    });
    await expect(failing.text()).rejects.toThrow();
  });
});

describe("the policies list as CSV", () => {
  test("a partner downloads what its filters select, its own only, names quoted and formulas defused", async () => {
    const p = await t.partner();
    const other = await t.partner();
    const c = productCases["vhcl-tprt-1111"]!;
    const consumer = (await p.run("prfl entity", individual({ name: { first: "=Ada", last: "Okafor, Jr" } }))).id;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
    const first = await p.run(`entt_${consumer}: insure`, insureSeed(c));
    const second = await p.run(`entt_${consumer}: insure`, insureSeed(c));
    await p.run(`cncl entt_${consumer}|insr_${c.code}-${second.id}`, { id: crypto.randomUUID(), reason: "duplicate" });
    const otherConsumer = (await other.run("prfl entity", individual())).id;
    await other.run(`dump ipck_${c.code}*PRMM`, c.quote);
    const theirs = await other.run(`entt_${otherConsumer}: insure`, insureSeed(c));

    const b = await signedIn(t, p.portal);
    const list = await b.get("/portal/policies?status=c");
    expect(list.text).toContain('href="/portal/policies.csv?status=c"');
    const all = await b.get("/portal/policies.csv");
    expect(all.status).toBe(200);
    expect(all.headers.get("content-disposition")).toMatch(/^attachment; filename="policies-\d{4}-\d\d-\d\d\.csv"$/);
    const records = recordsOf(all.text);
    expect(records[0]).toBe(
      "Reference,Policy number,Product,Product code,Insured,Consumer id,Status,Status note,Premium (NGN),Mode,First day of cover,Last day of cover,Requested (WAT)",
    );
    expect(records).toHaveLength(3);
    expect(all.text).toContain(`${first.id},${first.policyNo},"Vehicle, third-party",vhcl-tprt-1111,"'=Ada Okafor, Jr",${consumer},Approved,,15000,test,`);
    expect(all.text).not.toContain(theirs.id);
    const cancelled = recordsOf((await b.get("/portal/policies.csv?status=c")).text);
    expect(cancelled).toHaveLength(2);
    expect(cancelled[1]).toContain(second.id);
    expect(cancelled[1]).toContain("Cancelled");
  });

  test("the operator's list names each partner; a partner cannot have it", async () => {
    const p = await t.partner({ name: "Kobo Bank" });
    const c = productCases["vhcl-tprt-1111"]!;
    const consumer = (await p.run("prfl entity", individual())).id;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
    const policy = await p.run(`entt_${consumer}: insure`, insureSeed(c));
    const admin = await signedIn(t, operator.portal);
    const csv = await admin.get(`/admin/policies.csv?consumer=${consumer}`);
    expect(recordsOf(csv.text)[0]!.startsWith("Partner,Reference,")).toBe(true);
    expect(recordsOf(csv.text)[1]).toStartWith(`Kobo Bank,${policy.id},`);
    const partner = await signedIn(t, p.portal);
    expect((await partner.get("/admin/policies.csv")).status).toBe(403);
  });
});

describe("every list exports", () => {
  test("claims, financing, consumers, the wallet ledger, the API log, webhook deliveries and the audit log: the list's columns and its rows", async () => {
    const p = await t.partner();
    await p.run("wallet topup", { amount: 500_000, reference: "EXPORT-FUNDING" }, "live");
    const c = productCases["vhcl-tprt-1111"]!;
    const consumer = (await p.run("prfl entity", individual({ name: { first: "Chiamaka", last: "Eze" } }))).id;
    await p.run(`dump ipck_${c.code}*PRMM`, c.quote);
    const policy = await p.run(`entt_${consumer}: insure`, insureSeed(c));
    const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
    const claim = await p.run("claim submit", { policy: policy.id, incidentDate: today, description: "Side mirror", amount: 20_000 });
    const plan = await p.run("payment financeLoan", { policy: policy.id, downPayment: 3000, installments: 3, frequency: "monthly", firstDueDate: today });
    const hook = await p.run("webhook register", { url: "http://127.0.0.1:9/hooks" });
    const b = await signedIn(t, p.portal);
    const expectations: [path: string, header: string, marker: string][] = [
      ["/portal/claims.csv", "Claim number,Your reference,Policy", claim.claimNo],
      ["/portal/financing.csv", "Plan number,Policy,Status", plan.planNo],
      ["/portal/consumers.csv?q=Chiamaka", "Consumer id,Name,Kind", "Chiamaka Eze"],
      ["/portal/wallet/ledger.csv", "When (WAT),Kind,Reference", "EXPORT-FUNDING"],
      ["/portal/api-log.csv?command=wallet%20topup", "When (WAT),Command,Key", "wallet topup"],
      [`/portal/webhooks/${hook.endpointId}/deliveries.csv`, "Created (WAT),Event,URL", ""],
    ];
    for (const [path, header, marker] of expectations) {
      const response = await b.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(recordsOf(response.text)[0]!.startsWith(header), path).toBe(true);
      expect(response.text, path).toContain(marker);
    }
    expect(recordsOf((await b.get("/portal/wallet/ledger.csv")).text)).toHaveLength(2); // the header and the top-up (test policies move no money)
    const admin = await signedIn(t, operator.portal);
    for (const [path, marker] of [
      [`/admin/claims.csv`, claim.claimNo],
      ["/admin/financing.csv", plan.planNo],
      ["/admin/consumers.csv?q=Chiamaka", "Chiamaka Eze"],
      ["/admin/audit.csv", "When (WAT),Who,Account,Action"],
    ] as const) {
      const response = await admin.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(response.text, path).toContain(marker);
    }
    expect((await b.get("/portal/claims.csv?from=yesterday")).status).toBe(400);
  });
});
