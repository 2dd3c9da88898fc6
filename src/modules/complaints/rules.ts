/**
 * The complaint rules that need no database: who may move a complaint where, its clock, its number.
 *
 * The clock (docs/complaints.md, "The clock"): a complaint is acknowledged by the end of the
 * `acknowledgeWorkingDays`th working day after the Nigerian day it was received (Monday to Friday,
 * not public holidays, as the claims' voucher clock counts them), and resolved by the end of the
 * `resolutionDays`th calendar day after it. Due soon: `dueSoonDays` days left or fewer; overdue: the
 * day has passed.
 */
import { randomBytes } from "node:crypto";
import type { Config } from "../../core/config";
import { CommandError } from "../../core/errors";
import { watToday } from "../../products/policy-helpers";
import { addDays, addWorkingDays, daysBetween } from "../calendar";
import type { ComplaintStatus } from "./schema";

export interface ComplaintClockSettings {
  acknowledgeWorkingDays: number;
  resolutionDays: number;
  dueSoonDays: number;
}

export const complaintClock = (config: Config): ComplaintClockSettings => ({
  acknowledgeWorkingDays: config.COMPLAINT_ACK_WORKING_DAYS,
  resolutionDays: config.COMPLAINT_RESOLUTION_DAYS,
  dueSoonDays: config.COMPLAINT_DUE_SOON_DAYS,
});

/** The two deadlines of a complaint received on `receivedOn`. */
export const complaintDeadlines = (receivedOn: string, holidays: ReadonlySet<string>, settings: ComplaintClockSettings) => ({
  acknowledgeDueOn: addWorkingDays(receivedOn, settings.acknowledgeWorkingDays, holidays),
  resolveDueOn: addDays(receivedOn, settings.resolutionDays),
});

/** Where a deadline stands on `today`: days left (0 on its last day), or days overdue. */
export type Standing = { state: "running" | "due_soon"; daysLeft: number } | { state: "overdue"; daysOverdue: number };

export function standingOf(dueOn: string, today: string, dueSoonDays: number): Standing {
  const left = daysBetween(today, dueOn);
  if (left < 0) return { state: "overdue", daysOverdue: -left };
  return { state: left <= dueSoonDays ? "due_soon" : "running", daysLeft: left };
}

/** The deadline a complaint still has running: acknowledgement until acknowledged, then resolution; none once closed. */
export function runningDeadline(
  complaint: { status: ComplaintStatus; acknowledgeDueOn: string; resolveDueOn: string },
  today: string,
  settings: Pick<ComplaintClockSettings, "dueSoonDays">,
): { deadline: "acknowledge" | "resolve"; dueOn: string; standing: Standing } | null {
  if (complaint.status === "resolved" || complaint.status === "withdrawn") return null;
  const [deadline, dueOn] =
    complaint.status === "received" ? (["acknowledge", complaint.acknowledgeDueOn] as const) : (["resolve", complaint.resolveDueOn] as const);
  return { deadline, dueOn, standing: standingOf(dueOn, today, settings.dueSoonDays) };
}

/** Who moves a complaint: the operator's administrators, or the partner who filed it (withdrawing it). */
export type ComplaintActor = "operator" | "partner";

/** From each status, the statuses it may become and who may make the change; resolved and withdrawn are final. */
const COMPLAINT_TRANSITIONS: Readonly<Record<ComplaintStatus, Readonly<Partial<Record<ComplaintStatus, ComplaintActor>>>>> = {
  received: { acknowledged: "operator", resolved: "operator", withdrawn: "partner" },
  acknowledged: { in_progress: "operator", resolved: "operator", withdrawn: "partner" },
  in_progress: { resolved: "operator", withdrawn: "partner" },
  resolved: {},
  withdrawn: {},
};

/** Refuse (409) a change the table does not give to `actor`, naming where the complaint stands. */
export function checkTransition(complaintNo: string, from: ComplaintStatus, to: ComplaintStatus, actor: ComplaintActor): void {
  if (COMPLAINT_TRANSITIONS[from][to] === actor) return;
  const next = Object.entries(COMPLAINT_TRANSITIONS[from]).filter(([, by]) => by === actor);
  if (!Object.keys(COMPLAINT_TRANSITIONS[from]).length)
    throw new CommandError(409, `complaint ${complaintNo} is ${from}, a final status: it cannot become ${to}`);
  const allowed = next.length ? `from ${from} it can only become ${next.map(([s]) => s).join(" or ")}` : `the ${actor} cannot move it from ${from}`;
  throw new CommandError(409, `complaint ${complaintNo} is ${from}, so it cannot become ${to}: ${allowed}`);
}

/** Crockford base32 without look-alikes, 10 random characters: unguessable, unique by index. */
export function newComplaintNumber(now: Date): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const random = [...randomBytes(10)].map((b) => alphabet[b % 32]).join("");
  return `CMP-${watToday(now).slice(0, 4)}-${random}`;
}
