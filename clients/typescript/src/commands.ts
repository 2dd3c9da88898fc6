/** The command strings of spec 4.2 and docs/commands.md, and which of them are safe to repeat. */

/** `entt_<consumer_id>|insr_<product_code>-<tx_id>`: the policy that status, appr and the lifecycle commands address. */
const policy = (consumerId: string, productCode: string, txId: string) => `entt_${consumerId}|insr_${productCode}-${txId}`;

/**
 * Builders of every command string (placeholders filled in), named as the client's methods:
 * test/client/commands.test.ts fails while a command of the service's registry has no method here.
 */
export const commands = {
  registerConsumer: () => "prfl entity",
  quote: (productCode: string) => `dump ipck_${productCode}*PRMM`,
  insure: (consumerId: string) => `entt_${consumerId}: insure`,
  status: (consumerId: string, productCode: string, txId: string) => `dump ${policy(consumerId, productCode, txId)}*STATUS`,
  approve: (consumerId: string, productCode: string, txId: string) => `appr ${policy(consumerId, productCode, txId)}`,
  cancel: (consumerId: string, productCode: string, txId: string) => `cncl ${policy(consumerId, productCode, txId)}`,
  quoteCancellation: (consumerId: string, productCode: string, txId: string) => `dump ${policy(consumerId, productCode, txId)}*REFUND`,
  reinstate: (consumerId: string, productCode: string, txId: string) => `rinst ${policy(consumerId, productCode, txId)}`,
  renew: (consumerId: string, productCode: string, txId: string) => `rnew ${policy(consumerId, productCode, txId)}`,
  setAutoRenew: (consumerId: string, productCode: string, txId: string) => `rnew ${policy(consumerId, productCode, txId)}*AUTO`,
  endorse: (consumerId: string, productCode: string, txId: string) => `ndrs ${policy(consumerId, productCode, txId)}`,
  quoteEndorsement: (consumerId: string, productCode: string, txId: string) => `dump ${policy(consumerId, productCode, txId)}*ENDORSE`,
  listTransactions: () => "dump entt_*",
  listAllTransactions: () => "dump entt_*ADMIN",
  listConsumers: () => "dump entt_*CSTMRS",
  listAllConsumers: () => "dump entt_*CSTMRS_ADMIN",
  hospitals: () => "dump hlth_*HSPTLS",
  setMode: (mode: "live" | "test") => `set env_${mode}`,
  checkVehicle: () => "enrch niid_vehicle",
  decodeVin: () => "enrch vin_vehicle",
  submitClaim: () => "claim submit",
  claimStatus: () => "claim status",
  listClaims: () => "claim list",
  withdrawClaim: () => "claim withdraw",
  reviewClaim: () => "claim review",
  respondToClaim: () => "claim respond",
  assessClaim: () => "claim assess",
  setClaimPayee: () => "claim payee",
  claimVoucher: () => "claim voucher",
  acceptClaimVoucher: () => "claim accept",
  claimLetter: () => "claim letter",
  fileComplaint: () => "complaint file",
  complaintStatus: () => "complaint status",
  consumerLink: () => "consumer link",
  financeLoan: () => "payment financeLoan",
  recordInstallment: () => "payment recordInstallment",
  paymentStatus: () => "payment status",
  runLapse: () => "payment runLapse",
  topUpWallet: () => "wallet topup",
  walletStatement: () => "wallet statement",
  registerWebhook: () => "webhook register",
  updateWebhook: () => "webhook update",
  deleteWebhook: () => "webhook delete",
  listWebhooks: () => "webhook list",
  webhookDeliveries: () => "webhook deliveries",
  replayWebhook: () => "webhook replay",
  testWebhook: () => "webhook test",
  webhookSecret: () => "webhook secret",
} as const;

const READS =
  /^(dump |enrch |set env_(live|test)$|claim (status|list|voucher|letter)$|complaint status$|consumer link$|payment status$|wallet statement$|webhook (list|deliveries)$)/;
const POLICY = String.raw`entt_[^|\s]+\|insr_[^*\s]+`;
/** Like `set env_…`, it sets a state: sent twice, the state is as after once. */
const AUTO_RENEW = new RegExp(`^rnew ${POLICY}\\*AUTO$`);
/** The lifecycle writes, each stored once per its seed's `id` (a repeat answers the first). */
const LIFECYCLE_WRITE = new RegExp(`^(cncl|rinst|rnew|ndrs) ${POLICY}$`);

const has = (seed: unknown, field: string): boolean => {
  const value = (seed as Record<string, unknown> | null | undefined)?.[field];
  return typeof value === "string" ? value.length > 0 : value !== undefined && value !== null;
};

/**
 * Whether a command may be sent again after a network error, when nobody knows whether the first
 * request was carried out. The rule (documented in the client's README):
 *
 * - **Reads** — every `dump …` (quotes, status, lists, hospitals, the `*REFUND` and `*ENDORSE`
 *   previews), `enrch …` (a repeat within five minutes is a free cache hit), `claim status|list|voucher|letter`, `complaint status`,
 *   `consumer link` (a new link each time, nothing stored),
 *   `payment status`, `wallet statement`, `webhook list|deliveries` — and the commands that set a
 *   state, `set env_live|env_test` and `rnew …*AUTO` (setting a state twice leaves it set).
 * - **Writes that carry a unique reference** the service deduplicates on: `insure` with its `id`
 *   (a repeat is refused as "already in use", which the client resolves by reading the policy),
 *   `cncl`, `rinst`, `rnew` and `ndrs` with their `id`, `wallet topup` and
 *   `payment recordInstallment` with their `reference` (a repeat returns the first answer),
 *   `claim submit` and `complaint file` with a `reference`, `prfl entity` with an `eMail` (the same e-mail returns the
 *   same consumer), `webhook secret` without `rotate` and `webhook update` without `rotateSecret`
 *   (they set what they set), `claim payee` (the same account again changes nothing) and `claim accept`
 *   (a repeat of the acceptance of the same voucher version answers as the first).
 * - Everything else is **not** repeated: `appr`, `claim withdraw|review|respond|assess`, `payment financeLoan|runLapse`,
 *   `webhook register|delete|replay|test`, rotations, and any command the client does not know.
 */
export function isSafeToRepeat(cmmnd: string, seed?: unknown): boolean {
  if (READS.test(cmmnd) || AUTO_RENEW.test(cmmnd)) return true;
  if (/^entt_[^:\s|*]+\s*:\s*insure$/.test(cmmnd) || LIFECYCLE_WRITE.test(cmmnd)) return has(seed, "id");
  switch (cmmnd) {
    case "wallet topup":
    case "payment recordInstallment":
    case "claim submit":
    case "complaint file":
      return has(seed, "reference");
    case "prfl entity":
      return has(seed, "eMail");
    case "claim payee":
    case "claim accept":
      return true;
    case "webhook secret":
      return !has(seed, "rotate");
    case "webhook update":
      return !has(seed, "rotateSecret");
    default:
      return false;
  }
}

/** Commands that wait on the vehicle registry (its first lookup takes 12–17 s). */
export const isRegistryCommand = (cmmnd: string) => cmmnd === "enrch niid_vehicle";
