import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { auditDetailsText, auditRow } from "../src/modules/audit/presenter";

/** Every action name the domain writes to the audit log (`action: "x.y"`, and the ternaries that pick one). */
async function auditedActions(): Promise<string[]> {
  const names = new Set<string>();
  for await (const file of new Glob("src/**/*.{ts,tsx}").scan(".")) {
    const text = await Bun.file(file).text();
    for (const line of text.split("\n").filter((l) => /\baction: |adminAudit\(audit, /.test(l)))
      for (const match of line.matchAll(/"([a-z]+\.[a-z_]+)"/g)) names.add(match[1]!);
  }
  return [...names].sort();
}

describe("the audit log in words", () => {
  test("every action the domain audits has a name in words", async () => {
    const actions = await auditedActions();
    expect(actions.length).toBeGreaterThan(20);
    const row = auditRow(new Map());
    const unnamed = actions.filter((action) => row({ action, details: {} } as Parameters<typeof row>[0]).action === action);
    expect(unnamed).toEqual([]);
  });

  test("details: kobo as naira, yes and no, lists, a policy's status and product by name, never JSON", () => {
    expect(auditDetailsText("wallet.topup", { amountKobo: 10_000_000, balanceAfterKobo: 15_000_050 })).toBe("Amount: ₦100,000.00 · Balance after: ₦150,000.50");
    expect(auditDetailsText("policy.issue", { productCode: "vhcl-tprt-1111", mode: "live", status: "p" })).toBe(
      "Product: Vehicle, third-party · Mode: live · Status: Pending",
    );
    expect(auditDetailsText("vehicle.check", { status: "found", fromCache: true, amountKobo: 0 })).toBe("Status: found · From the cache: yes · Amount: ₦0.00");
    expect(auditDetailsText("financing.run_lapse", { asOf: "2026-11-26", count: 0, plans: [] })).toBe(
      "As of: 2026-11-26 · Plans lapsed: 0 · Plan numbers: none",
    );
    expect(auditDetailsText("claim.review", { status: "in_review", note: null })).toBe("Status: in review");
  });
});
