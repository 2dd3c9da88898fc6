/** The complaints pages' view models: a complaint's row, its page, its clock in words. */
import type { ComplaintPageView, ComplaintRowView, DueView, Tone } from "../../../views/complaints/complaints";
import { dateTime, day, naira } from "../../../views/format";
import { productName } from "../../products";
import { watToday } from "../../products/policy-helpers";
import { COMPLAINT_CATEGORIES, COMPLAINT_OUTCOME_WORDS, COMPLAINT_STATUS_WORDS } from "./categories";
import { type ComplaintClockSettings, runningDeadline, type Standing, standingOf } from "./rules";
import type { ComplaintStatus } from "./schema";
import type { ComplaintDetail, ComplaintRecord } from "./service";

export type Surface = "partner" | "operator";

export const complaintHref = (surface: Surface, complaintNo: string) =>
  surface === "operator" ? `/admin/complaints/${complaintNo}` : `/portal/complaints/${complaintNo}`;

const STATUS_TONE: Record<ComplaintStatus, Tone> = { received: "info", acknowledged: "wait", in_progress: "wait", resolved: "ok", withdrawn: "bad" };

const standingText = (dueOn: string, standing: Standing) =>
  standing.state === "overdue"
    ? `${day(dueOn)}: ${standing.daysOverdue} day${standing.daysOverdue === 1 ? "" : "s"} overdue`
    : `${day(dueOn)}: ${standing.daysLeft === 0 ? "today is the last day" : `${standing.daysLeft} day${standing.daysLeft === 1 ? "" : "s"} left`}`;

const toneOf = (standing: Standing): Tone => (standing.state === "overdue" ? "bad" : standing.state === "due_soon" ? "wait" : "info");

const LABEL = { acknowledge: "Acknowledge by", resolve: "Resolve by" } as const;

/** The deadline still running, in words. */
function dueOf(complaint: ComplaintRecord, today: string, clock: ComplaintClockSettings): DueView | undefined {
  const running = runningDeadline(complaint, today, clock);
  return running ? { label: LABEL[running.deadline], text: standingText(running.dueOn, running.standing), tone: toneOf(running.standing) } : undefined;
}

export function complaintRow(
  complaint: ComplaintRecord,
  surface: Surface,
  today: string,
  clock: ComplaintClockSettings,
  partnerName?: string,
): ComplaintRowView {
  return {
    complaintNo: complaint.complaintNo,
    href: complaintHref(surface, complaint.complaintNo),
    ...(partnerName ? { partnerName } : {}),
    complainant: complaint.complainantName,
    category: COMPLAINT_CATEGORIES[complaint.category],
    status: COMPLAINT_STATUS_WORDS[complaint.status],
    tone: STATUS_TONE[complaint.status],
    received: day(complaint.receivedOn),
    due: dueOf(complaint, today, clock),
  };
}

/** Both deadlines as they stand: met (when), missed, or running. */
function clockOf(c: ComplaintRecord, today: string, clock: ComplaintClockSettings): DueView[] {
  const met = (label: string, at: Date, dueOn: string): DueView => {
    const late = watToday(at) > dueOn;
    return { label, text: `${late ? "late, " : ""}on ${day(at)} (due ${day(dueOn)})`, tone: late ? "bad" : "ok" };
  };
  const running = (label: string, dueOn: string): DueView => {
    const standing = standingOf(dueOn, today, clock.dueSoonDays);
    return { label, text: standingText(dueOn, standing), tone: toneOf(standing) };
  };
  const closed = c.status === "resolved" || c.status === "withdrawn";
  return [
    c.acknowledgedAt ? met("Acknowledged", c.acknowledgedAt, c.acknowledgeDueOn) : closed ? false : running(LABEL.acknowledge, c.acknowledgeDueOn),
    c.status === "resolved" && c.closedAt ? met("Resolved", c.closedAt, c.resolveDueOn) : closed ? false : running(LABEL.resolve, c.resolveDueOn),
  ].filter((d): d is DueView => !!d);
}

export function complaintPage(c: ComplaintDetail, surface: Surface, today: string, clock: ComplaintClockSettings, partnerName?: string): ComplaintPageView {
  const base = complaintHref(surface, c.complaintNo);
  const policyHref =
    c.policyId && (surface === "operator" ? `/admin/policies/${c.policyId}` : `/portal/policies/${encodeURIComponent(c.policyReference ?? "")}`);
  const claimHref = c.claimNo && (surface === "operator" ? `/admin/claims/${c.claimNo}` : `/portal/claims/${c.claimNo}`);
  const link = (href: string, text: string) => (
    <a href={href} safe>
      {text}
    </a>
  );
  return {
    complaintNo: c.complaintNo,
    status: COMPLAINT_STATUS_WORDS[c.status],
    tone: STATUS_TONE[c.status],
    ...(partnerName ? { partnerName } : {}),
    details: [
      !!partnerName && ["Partner", partnerName],
      ["Complainant", c.complainantName],
      !!c.complainantEmail && ["E-mail", c.complainantEmail],
      !!c.complainantPhone && ["Phone", c.complainantPhone],
      ["About", COMPLAINT_CATEGORIES[c.category]],
      !!policyHref && { label: "Policy", html: link(policyHref, c.policyNo ?? c.policyReference ?? "") },
      !!c.productCode && ["Cover", productName(c.productCode)],
      !!claimHref && { label: "Claim", html: link(claimHref, c.claimNo!) },
      !!c.reference && ["Your reference", c.reference],
      ["Received", day(c.receivedOn)],
    ],
    description: c.description,
    clock: clockOf(c, today, clock),
    history: c.history.map((h) => ({
      status: COMPLAINT_STATUS_WORDS[h.status],
      ...(h.note ? { note: h.note } : {}),
      by: h.by === "partner" ? "The partner" : surface === "operator" ? h.by : "The insurer",
      at: dateTime(new Date(h.at)),
    })),
    notes: c.notes.map((n) => ({
      heading: `${n.kind === "internal" ? "Internal note" : "Added by the partner"} · ${dateTime(n.createdAt)}${surface === "operator" ? ` · ${n.by}` : ""}`,
      body: n.body,
    })),
    documents: c.documents.map((d) => ({ name: d.name, href: `${base}/documents/${d.position}`, size: `${Math.max(1, Math.round(d.sizeBytes / 1024))} KB` })),
    ...(c.status === "resolved" && c.outcome
      ? {
          resolution: {
            outcome: COMPLAINT_OUTCOME_WORDS[c.outcome],
            redress: c.redressKobo ? naira(c.redressKobo) : "None",
            text: c.resolution ?? "",
            letterHref: `${base}/letter.pdf`,
          },
        }
      : {}),
  };
}
