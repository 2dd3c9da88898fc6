/**
 * The client has one method per command of the service's registry (src/assembly/commands.ts), and no
 * method for a command the registry does not know: each method, called with a client whose fetch
 * keeps the request, must send a command string one of the registry's commands matches, and every
 * command of the registry must be sent by a method. A command added to the registry without a
 * method (or a method left behind by a command taken out) fails here, named.
 *
 * The compiler holds the other end: `calls` needs an entry for every builder of `commands`, and
 * every method of PartnerClient but the helpers has a builder of its name (`npm run typecheck`).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { commands } from "../../clients/typescript/src/index";
import { commandRegistry } from "../../src/assembly/commands";
import { type Holds, type Method, recordingClient, root, type Same } from "./support";

type CommandMethod = keyof typeof commands;
/** The methods that send no command of their own: they call the others (or any command string). */
type Helper = "waitForDecision" | "certificate" | "command";
export type EveryMethodHasABuilder = Holds<Same<Exclude<Method, Helper>, CommandMethod>>;

const policy = ["3f1c0d9e8b7a4c2f9e1d0c3b5a7f9e21", "vhcl-tprt-1111", "7c9e6679-7425-40de-944b-e07fc1f90ae7"] as const;

/** Each method's arguments, once per command it sends: only the command string is looked at, so the seeds are empty. */
const calls: Record<CommandMethod, readonly (readonly unknown[])[]> = {
  registerConsumer: [[{}]],
  quote: [["vhcl-tprt-1111", {}]],
  insure: [[policy[0], {}]],
  status: [policy],
  approve: [policy],
  cancel: [[...policy, {}]],
  quoteCancellation: [policy],
  reinstate: [[...policy, {}]],
  renew: [[...policy, {}]],
  setAutoRenew: [[...policy, true]],
  endorse: [[...policy, {}]],
  quoteEndorsement: [[...policy, {}]],
  listTransactions: [[]],
  listAllTransactions: [[]],
  listConsumers: [[]],
  listAllConsumers: [[]],
  hospitals: [[]],
  setMode: [["live"], ["test"]],
  checkVehicle: [[{}]],
  decodeVin: [["1HGCM82633A004352"]],
  submitClaim: [[{}]],
  claimStatus: [["CLM-2026-ABCDEFGHIJ"]],
  listClaims: [[]],
  withdrawClaim: [["CLM-2026-ABCDEFGHIJ"]],
  reviewClaim: [[{}]],
  respondToClaim: [[{}]],
  assessClaim: [[{}]],
  setClaimPayee: [[{}]],
  claimVoucher: [[{}]],
  acceptClaimVoucher: [[{}]],
  claimLetter: [[{}]],
  fileComplaint: [[{}]],
  complaintStatus: [["CMP-2026-0000000000"]],
  consumerLink: [["3f1c0d9e8b7a4c2f9e1d0c3b5a7f9e21"]],
  financeLoan: [[{}]],
  recordInstallment: [[{}]],
  paymentStatus: [["FIN-2026-ABCDEFGHIJ"]],
  runLapse: [[]],
  topUpWallet: [[{}]],
  walletStatement: [[]],
  registerWebhook: [[{}]],
  updateWebhook: [[{}]],
  deleteWebhook: [["endpoint"]],
  listWebhooks: [[]],
  webhookDeliveries: [[]],
  replayWebhook: [["delivery"]],
  testWebhook: [["endpoint"]],
  webhookSecret: [[]],
};

interface Sent {
  method: string;
  cmmnd: string;
}

/** What every method sends, in the order of `calls`. */
async function sentByMethods(): Promise<Sent[]> {
  const { client, sent } = recordingClient();
  const byMethod: Sent[] = [];
  for (const [method, argumentLists] of Object.entries(calls))
    for (const args of argumentLists) {
      await (client[method as CommandMethod] as (...args: readonly unknown[]) => Promise<unknown>).call(client, ...args);
      const requests = sent.splice(0);
      if (requests.length !== 1) throw new Error(`${method} sent ${requests.length} requests, not one`);
      byMethod.push({ method, cmmnd: requests[0]!.cmmnd });
    }
  return byMethod;
}

/**
 * The registry's commands no method sends (`missing`, by grammar) and the methods that send a
 * command the registry does not know (`extra`), each command matched as the registry matches it.
 */
function compare(definitions: readonly { grammar: string; pattern: RegExp }[], sent: readonly Sent[]) {
  const reached = new Set<string>();
  const extra: string[] = [];
  for (const { method, cmmnd } of sent) {
    const definition = definitions.find((d) => d.pattern.test(cmmnd));
    if (definition) reached.add(definition.grammar);
    else extra.push(`${method}: ${cmmnd}`);
  }
  return { missing: definitions.map((d) => d.grammar).filter((grammar) => !reached.has(grammar)), extra };
}

describe("one method per command of the registry", () => {
  test("every command of the registry has a method, and every method a command", async () => {
    expect(compare(commandRegistry.definitions, await sentByMethods())).toEqual({ missing: [], extra: [] });
  });

  test("a command added to the registry without a method is named as missing", async () => {
    const suspend = { grammar: "susp entt_<consumer_id>|insr_<product_code>-<tx_id>", pattern: /^susp entt_[^|\s]+\|insr_\S+$/ };
    expect(compare([...commandRegistry.definitions, suspend], await sentByMethods())).toEqual({ missing: [suspend.grammar], extra: [] });
  });

  test("so is a command whose method is gone; a method whose command the registry does not know is extra", async () => {
    const sent = (await sentByMethods()).filter((s) => s.method !== "cancel");
    expect(compare(commandRegistry.definitions, sent).missing).toEqual(["cncl entt_<consumer_id>|insr_<product_code>-<tx_id>"]);
    const withoutCancel = commandRegistry.definitions.filter((d) => !d.grammar.startsWith("cncl "));
    expect(compare(withoutCancel, await sentByMethods()).extra).toEqual([`cancel: cncl entt_${policy[0]}|insr_${policy[1]}-${policy[2]}`]);
  });

  test("the client's README lists every method in its Methods table", () => {
    const readme = readFileSync(`${root}clients/typescript/README.md`, "utf8");
    const table = readme.slice(readme.indexOf("## Methods"), readme.indexOf("## Errors"));
    expect(Object.keys(calls).filter((method) => !table.includes(`\`${method}(`))).toEqual([]);
  });
});
