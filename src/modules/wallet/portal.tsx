import { Elysia } from "elysia";
import { type LedgerRow, LedgerRows, type TopUpOutcome, type UsageProps, UsageStatementView, WalletPage, type WalletProps } from "../../../views/wallet/wallet";
import { CommandError } from "../../core/errors";
import { toKobo } from "../../core/money";
import { parseWith } from "../../core/validation";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { wireValue } from "../../products/forms";
import { recordAudit } from "../audit/service";
import { currentWatMonth, usageStatement } from "../enrichment/service";
import { topUpSeed } from "./model";
import { policyReferences, topUpWallet, walletBalance, walletLedger } from "./service";

const PAGE_SIZE = 25;

/** The form's strings as the `wallet topup` seed: the amount read like every portal number ("250,000", "₦1,500.50"). */
const topUpSeedFrom = (values: Record<string, string | undefined>) => ({
  amount: wireValue({ kind: "number", path: "amount", label: "Amount" }, values.amount),
  reference: values.reference?.trim() || undefined,
});

/** Partner pages: wallet balance, top-up, ledger and the monthly usage statement. */
export const walletPortal = (deps: AppDeps) => {
  const db = deps.database.db;

  async function ledger(viewer: PortalViewer, cursor?: string): Promise<WalletProps["ledger"]> {
    const list = await walletLedger(db, viewer.partnerId, { limit: PAGE_SIZE, cursor });
    const references = await policyReferences(
      db,
      viewer.partnerId,
      list.items.flatMap((entry) => (entry.policyId ? [entry.policyId] : [])),
    );
    const rows: LedgerRow[] = list.items.map((entry) => ({
      at: entry.createdAt,
      kind: entry.kind,
      amountKobo: entry.amountKobo,
      balanceAfterKobo: entry.balanceAfterKobo,
      reference: entry.reference,
      policyReference: entry.policyId ? (references.get(entry.policyId) ?? null) : null,
    }));
    return { rows, more: list.nextCursor ? `/portal/wallet?rows=1&cursor=${list.nextCursor}` : null };
  }

  async function usage(viewer: PortalViewer, month: string | undefined, now: Date): Promise<UsageProps> {
    const currentMonth = currentWatMonth(now);
    const asked = month?.trim() || currentMonth;
    try {
      const statement = await usageStatement(db, viewer.partnerId, asked);
      return { month: asked, currentMonth, statement };
    } catch (error) {
      return { month: asked, currentMonth, problem: problemOf(error) };
    }
  }

  async function walletProps(viewer: PortalViewer, csrf: string, topUp: WalletProps["topUp"], month: string | undefined): Promise<WalletProps> {
    const now = new Date();
    const [balanceKobo, ledgerPart, usagePart] = await Promise.all([walletBalance(db, viewer.partnerId), ledger(viewer), usage(viewer, month, now)]);
    return { balanceKobo, mode: viewer.mode, topUp, ledger: ledgerPart, usage: usagePart, csrf };
  }

  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Wallet", active: "wallet", viewer, csrf });

  return new Elysia({ name: "portal-wallet" })
    .use(portalSession(deps))
    .get(
      "/portal/wallet",
      async ({ viewer, csrf, request, query, set }) => {
        if (query.rows) {
          try {
            const part = await ledger(viewer, query.cursor || undefined);
            return <LedgerRows rows={part.rows} more={part.more} />;
          } catch (error) {
            set.status = 400;
            return (
              <tr>
                <td colspan="5" class="problem" safe>
                  {problemOf(error).message}
                </td>
              </tr>
            );
          }
        }
        const props = await walletProps(viewer, csrf, { values: {} }, query.month);
        if (props.usage.problem) set.status = 400;
        return page(request, shell(viewer, csrf), <WalletPage {...props} />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/wallet/usage",
      async ({ viewer, csrf, request, query, set }) => {
        const part = await usage(viewer, query.month, new Date());
        if (part.problem) set.status = 400;
        return page(request, { title: "Usage statement", active: "wallet", viewer, csrf }, <UsageStatementView {...part} />);
      },
      { portal: "partner" },
    )
    .post(
      "/portal/wallet/topup",
      async ({ viewer, csrf, request, body, set }) => {
        const values = formValues(body);
        let topUp: WalletProps["topUp"];
        try {
          const seed = parseWith(topUpSeed, topUpSeedFrom(values), "seed");
          const now = new Date();
          const { entry, applied } = await topUpWallet(
            db,
            viewer.partnerId,
            { amountKobo: toKobo(seed.amount), reference: seed.reference },
            now,
            (tx, credited) =>
              recordAudit(
                tx,
                viewer,
                {
                  action: "wallet.topup",
                  subject: credited.reference ?? seed.reference,
                  details: { amountKobo: credited.amountKobo, balanceAfterKobo: credited.balanceAfterKobo },
                },
                now,
              ),
          );
          const outcome: TopUpOutcome = {
            applied,
            reference: entry.reference ?? seed.reference,
            amountKobo: entry.amountKobo,
            balanceAfterKobo: entry.balanceAfterKobo,
            at: entry.createdAt,
          };
          // A new credit clears the form; a repeat keeps what was typed.
          topUp = { values: applied ? {} : values, outcome };
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          topUp = { values, problem };
        }
        return page(request, shell(viewer, csrf), <WalletPage {...(await walletProps(viewer, csrf, topUp, undefined))} />);
      },
      { portal: "partner" },
    );
};
