/**
 * Every text a partner or consumer can send is hostile until escaped: the views are rendered with
 * markup in every string and must print it as text. (xss-scan checks the source; this checks the output.)
 */
import { describe, expect, test } from "bun:test";
import { findProduct } from "../src/products";
import { consumerForm } from "../src/products/consumer-form";
import { ApprovalQueue, AuditPage, PartnersPage } from "../views/admin/admin";
import { ReviewDesk } from "../views/admin/review";
import { ConsumerDetail, ConsumerForm, ConsumerList } from "../views/consumers/consumers";
import { OperatorFundingsPage } from "../views/funding/funding";
import { Landing } from "../views/landing";
import { PolicyDetail, PolicyList } from "../views/policies/policies";
import { PasswordForm, SignInPage } from "../views/portal/auth";
import { Dashboard } from "../views/portal/dashboard";
import { PortalLayout } from "../views/portal/layout";
import { QuotePage } from "../views/quotes/quote";
import { VerifyPage } from "../views/verify";
import { EndpointPage, WebhooksPage } from "../views/webhooks/webhooks";

const EVIL = `<script>alert("x")</script><img src=x onerror=alert(1)>'"&`;
const at = new Date("2026-03-10T09:00:00Z");

/**
 * The markup was printed as text: outside attribute values (where only a quote could break out,
 * and quotes are escaped) no live tag survived, and the escaped form is there.
 */
function expectEscaped(html: string) {
  const outsideAttributes = html.replace(/="[^"]*"/g, '=""');
  expect(outsideAttributes).not.toContain("<script>alert");
  expect(outsideAttributes).not.toContain("<img src=x");
  expect(html).toContain("&lt;script&gt;");
  for (const value of html.match(/="[^"]*"/g) ?? []) expect(value.slice(2, -1)).not.toContain('"');
}

const viewer = {
  name: EVIL,
  email: EVIL,
  role: "owner" as const,
  partnerName: EVIL,
  mode: "test" as const,
  enrichmentEnabled: true,
  navigation: [{ href: EVIL, label: EVIL, key: "dashboard" }],
};
const policy = {
  title: EVIL,
  reference: EVIL,
  productName: EVIL,
  productCode: "vhcl-tprt-1111",
  consumerName: EVIL,
  consumerHref: "/portal/consumers/x",
  status: "d",
  statusNote: EVIL,
  policyNo: EVIL,
  premiumKobo: 1_500_000,
  mode: "live" as const,
  coverStart: at,
  coverEnd: at,
  createdAt: at,
  statusAt: at,
  printed: [[EVIL, EVIL]] as [string, string][],
  certificateHref: null,
  hostedHref: null,
  verifyHref: null,
  statusHref: "/x",
  pendingText: EVIL,
};
const policyRow = {
  reference: EVIL,
  policyNo: EVIL,
  productName: EVIL,
  consumerName: EVIL,
  partnerName: EVIL,
  status: "a",
  premiumKobo: 100,
  mode: "test" as const,
  createdAt: at,
  href: "/x",
};
const consumerRow = { id: "1", wireId: "1", name: EVIL, consumerClass: "h" as const, email: EVIL, phone: EVIL, documents: [EVIL], createdAt: at };
const problem = { message: EVIL, input: "name.first" };
const endpoint = { id: "e", url: EVIL, description: EVIL, events: [EVIL], enabled: false, disabledReason: EVIL, failingSince: at, createdAt: at };
const attempt = { number: 1, at, url: EVIL, requestHeaders: EVIL, requestBody: EVIL, responseStatus: 500, responseBody: EVIL, error: EVIL, latencyMs: 3 };

const views: [string, () => JSX.Element | string][] = [
  [
    "portal layout",
    () => (
      <PortalLayout title={EVIL} viewer={viewer} csrf={EVIL}>
        {"ok"}
      </PortalLayout>
    ),
  ],
  ["sign-in", () => <SignInPage email={EVIL} next={EVIL} problem={problem} csrf={EVIL} />],
  ["password", () => <PasswordForm required problem={{ message: EVIL }} csrf={EVIL} />],
  [
    "dashboard",
    () => (
      <Dashboard
        mode="live"
        byStatus={{}}
        expiringSoon={0}
        premiumThisMonthKobo={0}
        walletKobo={0}
        recent={[{ reference: EVIL, productName: EVIL, consumerName: EVIL, status: "a", premiumKobo: 1, at }]}
        charts={[
          {
            kind: "bar",
            chart: {
              id: "c",
              title: EVIL,
              description: EVIL,
              labelHeading: EVIL,
              valueHeading: EVIL,
              unit: "count",
              points: [{ label: EVIL, value: 1 }],
              empty: EVIL,
            },
          },
        ]}
      />
    ),
  ],
  ["consumer list", () => <ConsumerList rows={[consumerRow]} more={null} search={EVIL} />],
  [
    "consumer form",
    () => <ConsumerForm consumerClass="h" entries={consumerForm("h")} values={{ "name.first": EVIL, phoneNo: EVIL }} problem={problem} csrf={EVIL} />,
  ],
  [
    "consumer detail",
    () => <ConsumerDetail consumer={{ ...consumerRow, profile: {} }} lines={[[EVIL, EVIL]]} policies={[{ ...policyRow, productCode: "x" }]} />,
  ],
  [
    "consumer detail, operator",
    () => (
      <ConsumerDetail
        consumer={{ ...consumerRow, profile: {} }}
        lines={[[EVIL, EVIL]]}
        policies={[{ ...policyRow, productCode: "x" }]}
        operator={{ partnerName: EVIL, documents: [{ label: EVIL, href: "/x" }] }}
      />
    ),
  ],
  [
    "policy list",
    () => (
      <PolicyList
        title={EVIL}
        action="/x"
        exportHref="/x.csv"
        rows={[policyRow]}
        more={null}
        filters={{ status: EVIL }}
        products={[{ value: EVIL, label: EVIL }]}
        partners={[{ value: EVIL, label: EVIL }]}
        count={{ count: 1, more: false }}
        problem={{ message: EVIL, input: "from", more: [{ message: EVIL }] }}
      />
    ),
  ],
  ["policy detail", () => <PolicyDetail policy={policy} />],
  [
    "quote page",
    () => {
      const product = findProduct("ltix-stnd-1111");
      const forms = product.family.forms(product.type);
      return (
        <QuotePage
          products={[{ value: "ltix-stnd-1111", label: EVIL }]}
          product="ltix-stnd-1111"
          quoteEntries={forms.quote}
          policyEntries={forms.policy}
          values={{ destination: EVIL, "addtnlFact.passportNo": EVIL, id: EVIL, webHook: EVIL, consumer: EVIL }}
          premium={{ problem: { message: EVIL } }}
          consumers={{ search: EVIL, options: [{ wireId: EVIL, name: EVIL }], found: 1, more: false }}
          problem={{ message: EVIL }}
          mode="live"
          csrf={EVIL}
        />
      );
    },
  ],
  [
    "approvals",
    () => (
      <ApprovalQueue
        rows={[
          {
            id: "1",
            reference: EVIL,
            partnerName: EVIL,
            consumerName: EVIL,
            productName: EVIL,
            premiumKobo: 1,
            sumInsuredKobo: 2,
            amounts: EVIL,
            createdAt: at,
            href: "/x",
            waiting: EVIL,
          },
        ]}
        csrf={EVIL}
      />
    ),
  ],
  [
    "partners",
    () => (
      <PartnersPage
        rows={[{ partnerId: EVIL, name: EVIL, enrichment: true, suspended: true, mode: "live", createdAt: EVIL }]}
        csrf={EVIL}
        values={{ name: EVIL }}
        problem={{ message: EVIL }}
        created={{ partnerId: EVIL, name: EVIL, keys: { test: { id: EVIL, key: EVIL } }, portal: { email: EVIL, password: EVIL } }}
      />
    ),
  ],
  [
    "fundings with their history",
    () => (
      <OperatorFundingsPage
        rows={[
          {
            id: EVIL,
            partnerName: EVIL,
            reference: EVIL,
            amountKobo: 1,
            receivedKobo: null,
            status: "credited",
            note: EVIL,
            createdAt: at,
            expiresAt: at,
            trail: [{ at, text: EVIL }],
            awaiting: null,
          },
        ]}
        filters={{ values: { reference: EVIL }, partners: [{ value: EVIL, label: EVIL }] }}
        olderHref={EVIL}
        fourEyesKobo={1}
        csrf={EVIL}
        state={{ values: {}, done: EVIL }}
      />
    ),
  ],
  [
    "audit log",
    () => (
      <AuditPage
        rows={[{ at, actor: EVIL, partnerName: EVIL, action: EVIL, about: EVIL, subject: { text: EVIL, href: EVIL }, details: EVIL }]}
        more={EVIL}
        choices={{ partners: [{ value: EVIL, label: EVIL }], actions: [{ value: EVIL, label: EVIL }], subjects: [] }}
        values={{ actor: EVIL, from: EVIL }}
        problem={{ message: EVIL, input: "from" }}
        exportHref={EVIL}
        total={{ count: { count: 2, more: false }, one: EVIL, many: EVIL, filtered: true }}
      />
    ),
  ],
  [
    "webhooks",
    () => (
      <WebhooksPage
        endpoints={[endpoint]}
        types={["webhook.test"]}
        values={{ url: EVIL }}
        events={[]}
        problem={{ message: EVIL }}
        created={{ endpoint, secret: EVIL }}
        csrf={EVIL}
      />
    ),
  ],
  [
    "webhook endpoint",
    () => (
      <EndpointPage
        endpoint={endpoint}
        types={["webhook.test"]}
        deliveries={[{ id: "d", eventType: EVIL, url: EVIL, status: "failed", attempts: [attempt], nextAttemptAt: at, createdAt: at }]}
        more={null}
        values={{ url: EVIL, description: EVIL }}
        events={[]}
        secret={{ value: EVIL, note: EVIL }}
        message={EVIL}
        csrf={EVIL}
      />
    ),
  ],
  [
    "verification page",
    () => (
      <VerifyPage
        policyNo={EVIL}
        policy={{
          policyNo: EVIL,
          state: "valid",
          statusText: EVIL,
          insurer: EVIL,
          productName: EVIL,
          insuredInitials: EVIL,
          insuredItem: EVIL,
          coverStart: new Date(),
          coverEnd: new Date(),
          specimen: true,
        }}
      />
    ),
  ],
  [
    "review desk",
    () => (
      <ReviewDesk
        policyId="1"
        reference={EVIL}
        partnerName={EVIL}
        createdAt={at}
        now={at}
        productName={EVIL}
        amounts={EVIL}
        risk={[[EVIL, EVIL]]}
        consumerName={EVIL}
        consumerHref="/c"
        consumerLines={[[EVIL, EVIL]]}
        documents={[
          { label: EVIL, href: "/x", image: true },
          { label: EVIL, href: "/y", image: false },
        ]}
        nextHref="/next"
        csrf={EVIL}
        values={{ statusNote: EVIL }}
        problem={{ message: EVIL, input: "statusNote" }}
      />
    ),
  ],
  ["landing", () => <Landing engine={EVIL} />],
];

describe("views print hostile text as text", () => {
  test.each(views)("%s", async (_name, render) => {
    expectEscaped(String(await render()));
  });
});
