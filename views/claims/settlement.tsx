import { dateTime, naira } from "../format";
import { Badge, type FormProblem, type FormValues, HxForm, Input, ProblemSummary } from "../portal/ui";

type Tone = "ok" | "wait" | "bad" | "info";

/** How a claim is paid, as its page shows it: the account, the discharge voucher, the payout, and what the viewer may do next. */
export interface SettlementView {
  /** The account to pay into, with how its name compares with the insured's. */
  payee?: { bank: string; accountNumber: string; accountName: string; check: { tone: Tone; text: string } };
  /** The partner's form to give or change the account, while it may change. */
  payeeForm?: { action: string; banks: readonly { value: string; label: string }[]; changing: boolean };
  /** The operator's button when the account's name does not match the insured's. */
  confirmPayee?: { action: string; label: string };
  /** The voucher in force. */
  voucher?: { version: number; issuedAt: Date; payableKobo: number; href: string; status: { tone: Tone; text: string } };
  /** Why an approved claim has no voucher yet. */
  voucherWaits?: string;
  /** The partner's button to record the claimant's acceptance. */
  accept?: { action: string; version: number; label: string };
  /** The latest payout. */
  payout?: {
    status: { tone: Tone; text: string };
    amountKobo: number;
    lateInterestKobo: number;
    /** The account it was sent to: "NAME, Bank, 0123456789". */
    account: string;
    reference: string;
    reason: string | null;
    at: Date;
    /** What the viewer may do once the bank refused it. */
    next?: string;
    /** The voucher it paid, when that is no longer the one in force (the account changed since). */
    earlierVoucher?: number;
  };
  /** The operator's button to send a failed payout again. */
  resend?: { action: string; label: string };
  /** A rejected claim's letter. */
  letterHref?: string;
}

/** The account form: the bank and the ten-digit number (the bank's name for it is looked up). */
function PayeeForm(props: { form: NonNullable<SettlementView["payeeForm"]>; csrf: string; values: FormValues; problem?: FormProblem }) {
  return (
    <HxForm action={props.form.action} target="#claim" csrf={props.csrf}>
      <h3>{props.form.changing ? "Change the account to pay into" : "The account to pay into"}</h3>
      <ProblemSummary problem={props.problem} inputs={["bankCode", "accountNumber"]} />
      <Input
        name="bankCode"
        label="Bank"
        kind="select"
        options={props.form.banks}
        emptyChoice="Choose the bank"
        value={props.values.bankCode}
        problem={props.problem}
      />
      <Input
        name="accountNumber"
        label="Account number"
        value={props.values.accountNumber}
        hint="The ten-digit account number (NUBAN). The bank's name for the account is looked up and compared with the insured's."
        problem={props.problem}
        autocomplete="off"
      />
      <button type="submit">{props.form.changing ? "Change the account" : "Give the account"}</button>
    </HxForm>
  );
}

/** A claim's settlement: shown from the moment there is an account, a voucher, a payout or a letter to show. */
export function SettlementCard(props: { view: SettlementView; csrf: string; values: FormValues; problem?: FormProblem }) {
  const s = props.view;
  return (
    <section class="card" aria-labelledby="settlement-title">
      {/* A rejected claim is not paid: its card holds the letter that says why. */}
      <h2 id="settlement-title">{s.letterHref ? "Rejection letter" : "Payment"}</h2>
      {s.letterHref ? (
        <p>
          <a href={s.letterHref}>Download the rejection letter (PDF)</a>
        </p>
      ) : (
        ""
      )}
      {s.payee ? (
        <dl class="details">
          <dt>Account to pay into</dt>
          <dd>
            <span safe>{`${s.payee.accountName}, ${s.payee.bank}, ${s.payee.accountNumber}`}</span>
            <br />
            <Badge tone={s.payee.check.tone} text={s.payee.check.text} />
          </dd>
        </dl>
      ) : (
        ""
      )}
      {s.confirmPayee ? (
        <HxForm action={s.confirmPayee.action} target="#claim" csrf={props.csrf}>
          <button type="submit" safe>
            {s.confirmPayee.label}
          </button>
        </HxForm>
      ) : (
        ""
      )}
      {s.payeeForm && !s.payeeForm.changing ? <PayeeForm form={s.payeeForm} csrf={props.csrf} values={props.values} problem={props.problem} /> : ""}
      {s.voucherWaits ? (
        <p class="notice" safe>
          {s.voucherWaits}
        </p>
      ) : (
        ""
      )}
      {s.voucher ? (
        <>
          <h3 safe>{`Discharge voucher, version ${s.voucher.version}`}</h3>
          <p>
            <span safe>{`${naira(s.voucher.payableKobo)} payable; issued ${dateTime(s.voucher.issuedAt)}. `}</span>
            <Badge tone={s.voucher.status.tone} text={s.voucher.status.text} />
          </p>
          <p>
            <a href={s.voucher.href}>Download the voucher (PDF)</a>
          </p>
        </>
      ) : (
        ""
      )}
      {s.accept ? (
        <HxForm action={s.accept.action} target="#claim" csrf={props.csrf}>
          <input type="hidden" name="version" value={String(s.accept.version)} />
          <p class="hint">Once the insured has read the voucher and agrees to it: the payment follows at once.</p>
          <button type="submit" safe>
            {s.accept.label}
          </button>
        </HxForm>
      ) : (
        ""
      )}
      {s.payout ? (
        <>
          <h3>{s.payout.earlierVoucher ? `The last payout, of voucher version ${s.payout.earlierVoucher}` : "Payout"}</h3>
          <p>
            <Badge tone={s.payout.status.tone} text={s.payout.status.text} />
          </p>
          <p safe>
            {`${naira(s.payout.amountKobo)}${s.payout.lateInterestKobo ? `, of which ${naira(s.payout.lateInterestKobo)} interest for the late settlement,` : ""} to ${s.payout.account}; transfer ${s.payout.reference}, ${dateTime(s.payout.at)}.`}
          </p>
          {s.payout.reason ? <p safe>{`The bank said: ${s.payout.reason}`}</p> : ""}
          {s.payout.next ? (
            <p class="notice" safe>
              {s.payout.next}
            </p>
          ) : (
            ""
          )}
        </>
      ) : (
        ""
      )}
      {s.resend ? (
        <HxForm action={s.resend.action} target="#claim" csrf={props.csrf}>
          <button type="submit" safe>
            {s.resend.label}
          </button>
        </HxForm>
      ) : (
        ""
      )}
      {/* Changing the account comes after what is in force (the voucher to accept, the payout), not before it. */}
      {s.payeeForm?.changing ? <PayeeForm form={s.payeeForm} csrf={props.csrf} values={props.values} problem={props.problem} /> : ""}
    </section>
  );
}
