import { coverPeriod } from "./format";
import { Layout } from "./layout";

export interface VerifiedPolicy {
  policyNo: string;
  /** valid: cover now or later; expired: it has ended; cancelled: it was cancelled; no-cover: pending, declined or lapsed. */
  state: "valid" | "expired" | "cancelled" | "no-cover";
  statusText: string;
  insurer: string;
  productName: string;
  insuredInitials: string;
  /** The vehicle and its plate, or the device, when the policy insures one. */
  insuredItem?: string;
  coverStart: Date;
  coverEnd: Date;
  specimen: boolean;
}

const STATE_TITLE = { valid: "Valid", expired: "Expired", cancelled: "Cancelled", "no-cover": "No cover" } as const;
const STATE_CLASS = { valid: "verdict ok", expired: "verdict bad", cancelled: "verdict bad", "no-cover": "verdict bad" } as const;

/** GET /verify/<policyNo>: anyone holding a certificate (a traffic officer, a shop clerk) can check it is genuine and in force. */
export function VerifyPage(props: { policy: VerifiedPolicy | null; policyNo: string }) {
  const p = props.policy;
  return (
    <Layout title="Certificate verification">
      <h1>Certificate verification</h1>
      {p ? (
        <section class="card" aria-live="polite">
          <p class={p.specimen ? "verdict bad" : STATE_CLASS[p.state]}>
            <strong>{p.specimen ? "Specimen" : STATE_TITLE[p.state]}</strong>
          </p>
          <p>
            Policy <strong safe>{p.policyNo}</strong> is <strong safe>{p.statusText}</strong>.
          </p>
          {p.specimen && <p class="warn">This is a SPECIMEN issued in test mode: it provides no cover.</p>}
          <dl>
            <dt>Insurer</dt>
            <dd safe>{p.insurer}</dd>
            <dt>Product</dt>
            <dd safe>{p.productName}</dd>
            <dt>Insured</dt>
            <dd safe>{p.insuredInitials}</dd>
            {p.insuredItem ? (
              <>
                <dt>Insured item</dt>
                <dd safe>{p.insuredItem}</dd>
              </>
            ) : (
              ""
            )}
            <dt>Cover</dt>
            <dd safe>{coverPeriod(p.coverStart, p.coverEnd)}</dd>
          </dl>
        </section>
      ) : (
        <p class="verdict bad">
          No policy with number <strong safe>{props.policyNo}</strong> exists. The certificate is not genuine.
        </p>
      )}
    </Layout>
  );
}
