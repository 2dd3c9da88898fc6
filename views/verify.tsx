import { Layout } from "./layout";

export interface VerifiedPolicy {
  policyNo: string;
  valid: boolean;
  statusText: string;
  productName: string;
  insuredInitials: string;
  /** "23 Nov 2026 to 22 Nov 2027", both days included. */
  cover: string;
  specimen: boolean;
}

/** GET /verify/<policyNo>: anyone holding a certificate can check it is genuine and in force. */
export function VerifyPage(props: { policy: VerifiedPolicy | null; policyNo: string }) {
  const p = props.policy;
  return (
    <Layout title="Certificate verification">
      <h1>Certificate verification</h1>
      {p ? (
        <section aria-live="polite">
          <p class={p.valid ? "ok" : "warn"}>
            Policy <strong safe>{p.policyNo}</strong> is <strong safe>{p.statusText}</strong>.
          </p>
          {p.specimen && <p class="warn">This is a SPECIMEN issued in test mode: it provides no cover.</p>}
          <dl>
            <dt>Product</dt>
            <dd safe>{p.productName}</dd>
            <dt>Insured</dt>
            <dd safe>{p.insuredInitials}</dd>
            <dt>Cover</dt>
            <dd safe>{p.cover}</dd>
          </dl>
        </section>
      ) : (
        <p class="warn">
          No policy with number <strong safe>{props.policyNo}</strong> exists. The certificate is not genuine.
        </p>
      )}
    </Layout>
  );
}
