import { Elysia } from "elysia";
import { LedgerRows, type UsageProps, UsageStatementView, WalletPage, type WalletProps } from "../../../views/wallet/wallet";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { csvDownload } from "../../portal/export";
import { moreHref, PAGE_SIZE } from "../../portal/kit";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { currentWatMonth, usageStatement } from "../enrichment";
import { LEDGER_CSV_COLUMNS, ledgerCsvRow, ledgerRow, policyReferences, topUpRequestFrom, topUpSeedFrom, walletBalance, walletLedger } from "../wallet";
import { payInSandbox } from "./callbacks";
import { fundingHistory, fundingShowOf, fundingTrails, testBalance, testTopUps } from "./lists";
import { fundingRow, testLedgerRow, topUpOutcome } from "./presenter";
import { paymentProvider } from "./providers";
import { startFunding, testTopUp } from "./top-ups";

/** Partner pages: wallet balance, top-up, ledger and the monthly usage statement. */
export const walletPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const provider = paymentProvider(deps.config);
  const sandbox = provider.name === "sandbox";
  const shell = (viewer: PortalViewer, csrf: string, title = "Wallet") => ({ title, active: "wallet", viewer, csrf });

  async function ledger(viewer: PortalViewer, cursor?: string): Promise<WalletProps["ledger"]> {
    const list = await walletLedger(db, viewer.partnerId, { limit: PAGE_SIZE, cursor });
    const policyIds = list.items.flatMap((entry) => (entry.policyId ? [entry.policyId] : []));
    const references = await policyReferences(db, viewer.partnerId, policyIds);
    return { rows: list.items.map((entry) => ledgerRow(entry, references)), more: moreHref("/portal/wallet", {}, list.nextCursor) };
  }

  async function usage(viewer: PortalViewer, month: string | undefined, now: Date): Promise<UsageProps> {
    const currentMonth = currentWatMonth(now);
    const asked = month?.trim() || currentMonth;
    try {
      return { month: asked, currentMonth, statement: await usageStatement(db, viewer.partnerId, asked) };
    } catch (error) {
      return { month: asked, currentMonth, problem: problemOf(error) };
    }
  }

  /** Test mode's own ledger: the test top-ups, newest first (never the live wallet's money). */
  async function testLedger(viewer: PortalViewer, cursor?: string): Promise<WalletProps["ledger"]> {
    const list = await testTopUps(db, viewer.partnerId, { limit: PAGE_SIZE, cursor });
    return { rows: list.items.map(testLedgerRow), more: moreHref("/portal/wallet", { ledger: "test" }, list.nextCursor) };
  }

  async function testWallet(viewer: PortalViewer): Promise<WalletProps["test"]> {
    const [balanceKobo, ledgerPart] = await Promise.all([testBalance(db, viewer.partnerId), testLedger(viewer)]);
    return { balanceKobo, ledger: ledgerPart };
  }

  /** The wallet page's parts; `show` filters the live top-ups (every one by default). */
  async function walletProps(
    viewer: PortalViewer,
    csrf: string,
    topUp: WalletProps["topUp"],
    month: string | undefined,
    showRaw?: string,
    fundingsCursor?: string,
  ): Promise<WalletProps> {
    const show = fundingShowOf(showRaw, "all");
    const selection = { show, partnerId: viewer.partnerId };
    // A cursor that is none (edited by hand) starts again from the newest.
    const topUps = () =>
      fundingHistory(db, selection, { limit: PAGE_SIZE, cursor: fundingsCursor }).catch(() => fundingHistory(db, selection, { limit: PAGE_SIZE }));
    const [balanceKobo, ledgerPart, usagePart, fundings, test] = await Promise.all([
      walletBalance(db, viewer.partnerId),
      ledger(viewer),
      usage(viewer, month, new Date()),
      viewer.mode === "live" ? topUps() : { items: [], nextCursor: null },
      viewer.mode === "test" ? testWallet(viewer) : undefined,
    ]);
    const { trails } = await fundingTrails(db, fundings.items);
    const fundingRows = fundings.items.map((funding) => fundingRow(funding, sandbox, trails.get(funding.id)));
    const olderFundings = fundings.nextCursor
      ? `/portal/wallet?${new URLSearchParams({ ...(show === "all" ? {} : { show }), fundings: fundings.nextCursor })}#fundings`
      : null;
    return {
      balanceKobo,
      mode: viewer.mode,
      topUp,
      ledger: ledgerPart,
      usage: usagePart,
      fundings: fundingRows,
      fundingsShown: show === "all" ? undefined : show,
      olderFundings,
      test,
      csrf,
    };
  }

  return new Elysia({ name: "portal-wallet" })
    .use(portalSession(deps))
    .get(
      "/portal/wallet",
      async ({ viewer, csrf, request, query, set }) => {
        if (query.rows) {
          try {
            const part = query.ledger === "test" ? await testLedger(viewer, query.cursor || undefined) : await ledger(viewer, query.cursor || undefined);
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
        const props = await walletProps(viewer, csrf, { values: {} }, query.month, query.show, query.fundings || undefined);
        if (props.usage.problem) set.status = 400;
        return page(request, shell(viewer, csrf), <WalletPage {...props} />);
      },
      { portal: "partner" },
    )
    .get(
      "/portal/wallet/ledger.csv",
      ({ viewer }) =>
        csvDownload({
          filename: `wallet-ledger-${watToday(new Date())}`,
          columns: LEDGER_CSV_COLUMNS,
          page: (limit, cursor) => walletLedger(db, viewer.partnerId, { limit, cursor }),
          rows: async (items) => {
            const references = await policyReferences(
              db,
              viewer.partnerId,
              items.flatMap((entry) => (entry.policyId ? [entry.policyId] : [])),
            );
            return items.map((entry) => ledgerCsvRow(ledgerRow(entry, references)));
          },
        }),
      { portal: "partner" },
    )
    .get(
      "/portal/wallet/usage",
      async ({ viewer, csrf, request, query, set }) => {
        const part = await usage(viewer, query.month, new Date());
        if (part.problem) set.status = 400;
        return page(request, shell(viewer, csrf, "Usage statement"), <UsageStatementView {...part} />);
      },
      { portal: "partner" },
    )
    .post(
      "/portal/wallet/topup",
      async ({ viewer, csrf, request, body, set }) => {
        const values = formValues(body);
        let topUp: WalletProps["topUp"];
        try {
          const topUpRequest = topUpRequestFrom(topUpSeedFrom(values));
          // Live: a funding credited when the provider confirms it; test: a specimen in the test balance (docs/funding.md).
          const state =
            viewer.mode === "live"
              ? await startFunding(db, provider, viewer.partnerId, topUpRequest, new Date(), viewer)
              : await testTopUp(db, viewer.partnerId, topUpRequest, new Date());
          // A new top-up clears the form; a repeat keeps what was typed.
          topUp = { values: state.repeat ? values : {}, outcome: topUpOutcome(state, sandbox) };
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          topUp = { values, problem };
        }
        return page(request, shell(viewer, csrf), <WalletPage {...(await walletProps(viewer, csrf, topUp, undefined))} />);
      },
      { portal: "partner" },
    )
    .post(
      "/portal/wallet/fundings/:id/pay",
      async ({ viewer, csrf, request, params, set }) => {
        let topUp: WalletProps["topUp"] = { values: {} };
        try {
          // The sandbox provider's signed callback, through the same verification and crediting as one from outside.
          await payInSandbox(db, provider, viewer.partnerId, params.id, new Date());
        } catch (error) {
          set.status = error instanceof CommandError ? error.status : 400;
          topUp = { values: {}, problem: problemOf(error) };
        }
        return page(request, shell(viewer, csrf), <WalletPage {...(await walletProps(viewer, csrf, topUp, undefined))} />);
      },
      { portal: "partner" },
    );
};
