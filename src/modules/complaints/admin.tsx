import { Elysia } from "elysia";
import { COMPLAINT_DOCUMENT_INPUTS, ComplaintList, ComplaintPage } from "../../../views/complaints/complaints";
import { publicUrl } from "../../core/config";
import { CommandError } from "../../core/errors";
import { toKobo } from "../../core/money";
import type { AppDeps } from "../../http/context";
import { download, notFound, type ResponseSet, refusedAsNull } from "../../portal/kit";
import { formValues, givenFields, page, problemOf, typedValue } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { wireValue } from "../../products/forms";
import { watToday } from "../../products/policy-helpers";
import { partnerNames } from "../partners";
import { COMPLAINT_OUTCOME_WORDS } from "./categories";
import { resolutionLetter } from "./letter";
import { addSeed, complaintNoOf, decodedDocuments, parseComplaintSeed, resolveSeed, uploadedDocuments } from "./model";
import { complaintHref, complaintPage, complaintRow } from "./presenter";
import { complaintClock } from "./rules";
import { addNote, type ComplaintDetail, complaintDetail, complaintDocument, complaintLetter, listComplaints, moveComplaint, resolveComplaint } from "./service";

const NO_COMPLAINT = "No complaint with this number.";

/** The operator's complaints desk: every partner's complaints by what is due first, and a complaint's page with its actions. */
export const complaintAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const clock = complaintClock(deps.config);
  const baseUrl = publicUrl(deps.config);
  const maxBytes = deps.config.MAX_DOCUMENT_BYTES;
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "complaints", viewer, csrf });
  const complaintOf = (raw: string) => {
    const complaintNo = complaintNoOf(raw);
    return complaintNo ? complaintDetail(db, {}, complaintNo).catch(refusedAsNull) : null;
  };
  const detail = async (
    complaint: ComplaintDetail,
    csrf: string,
    extra: { values?: Record<string, string | undefined>; problem?: ReturnType<typeof problemOf>; done?: string } = {},
  ) => {
    const base = complaintHref("operator", complaint.complaintNo);
    const open = complaint.status !== "resolved" && complaint.status !== "withdrawn";
    const partnerName = (await partnerNames(db, [complaint.partnerId])).get(complaint.partnerId);
    return (
      <ComplaintPage
        complaint={complaintPage(complaint, "operator", watToday(new Date()), clock, partnerName)}
        backHref="/admin/complaints"
        actions={{
          csrf,
          ...(complaint.status === "received" ? { acknowledge: `${base}/acknowledge` } : {}),
          ...(complaint.status === "acknowledged" ? { start: `${base}/start` } : {}),
          ...(open ? { resolve: `${base}/resolve`, outcomes: COMPLAINT_OUTCOME_WORDS } : {}),
          note: `${base}/note`,
          ...extra,
        }}
      />
    );
  };
  /** A post on a complaint's page: the change, then the page as it is now (or again with the refusal beside its field). */
  const act =
    (done: string, run: (complaint: ComplaintDetail, viewer: PortalViewer, body: unknown) => Promise<ComplaintDetail>) =>
    async ({
      viewer,
      csrf,
      request,
      params,
      body,
      set,
    }: {
      viewer: PortalViewer;
      csrf: string;
      request: Request;
      params: { complaintNo: string };
      body: unknown;
      set: ResponseSet;
    }) => {
      const complaint = await complaintOf(params.complaintNo);
      if (!complaint) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_COMPLAINT));
      const title = `Complaint ${complaint.complaintNo}`;
      try {
        return page(request, shell(viewer, csrf, title), await detail(await run(complaint, viewer, body), csrf, { done }));
      } catch (error) {
        const problem = problemOf(error);
        set.status = error instanceof CommandError ? error.status : 400;
        return page(
          request,
          shell(viewer, csrf, title),
          await detail(await complaintDetail(db, {}, complaint.complaintNo), csrf, { values: formValues(body), problem }),
        );
      }
    };
  const changeOf = (complaint: ComplaintDetail, viewer: PortalViewer) => ({
    complaintNo: complaint.complaintNo,
    by: viewer.email,
    actor: viewer,
    now: new Date(),
    baseUrl,
  });

  return new Elysia({ name: "admin-complaints" })
    .use(portalSession(deps))
    .get(
      "/admin/complaints",
      async ({ viewer, csrf, request }) => {
        const today = watToday(new Date());
        const complaints = await listComplaints(db, {});
        const names = await partnerNames(
          db,
          complaints.map((c) => c.partnerId),
        );
        return page(
          request,
          shell(viewer, csrf, "Complaints"),
          <ComplaintList
            title="Complaints desk"
            rows={complaints.map((c) => complaintRow(c, "operator", today, clock, names.get(c.partnerId)))}
            withPartner
            intro="Every partner's complaints: open ones first, the one due soonest at the top; overdue and due-soon deadlines are marked."
          />,
        );
      },
      { portal: "admin" },
    )
    .get(
      "/admin/complaints/:complaintNo",
      async ({ viewer, csrf, request, params, set }) => {
        const complaint = await complaintOf(params.complaintNo);
        if (!complaint) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_COMPLAINT));
        return page(request, shell(viewer, csrf, `Complaint ${complaint.complaintNo}`), await detail(complaint, csrf));
      },
      { portal: "admin" },
    )
    .post(
      "/admin/complaints/:complaintNo/acknowledge",
      act("The complaint was acknowledged.", (c, viewer) => moveComplaint(db, changeOf(c, viewer), "acknowledged")),
      { portal: "admin" },
    )
    .post(
      "/admin/complaints/:complaintNo/start",
      act("The complaint is in progress.", (c, viewer) => moveComplaint(db, changeOf(c, viewer), "in_progress")),
      { portal: "admin" },
    )
    .post(
      "/admin/complaints/:complaintNo/resolve",
      act("The complaint was resolved and its letter written.", (c, viewer, body) => {
        const values = formValues(body);
        const seed = parseComplaintSeed(
          resolveSeed,
          givenFields({
            outcome: typedValue(values.outcome),
            resolution: typedValue(values.resolution),
            redress: wireValue({ kind: "number", path: "redress", label: "Redress" }, values.redress),
          }),
        );
        return resolveComplaint(
          db,
          changeOf(c, viewer),
          { outcome: seed.outcome, resolution: seed.resolution, redressKobo: seed.redress === undefined ? 0 : toKobo(seed.redress) },
          (resolved) => resolutionLetter(resolved, deps.config.INSURER_NAME),
        );
      }),
      { portal: "admin" },
    )
    .post(
      "/admin/complaints/:complaintNo/note",
      act("The note was added.", async (c, viewer, body) => {
        const values = formValues(body);
        const files = await uploadedDocuments(body, COMPLAINT_DOCUMENT_INPUTS);
        const seed = parseComplaintSeed(
          addSeed,
          givenFields({ complaintNo: c.complaintNo, note: typedValue(values.note), documents: files.length ? files : undefined }),
        );
        return addNote(db, {
          scope: {},
          complaintNo: c.complaintNo,
          kind: "internal",
          body: seed.note,
          documents: decodedDocuments(seed.documents, maxBytes),
          by: viewer.email,
          actor: viewer,
          now: new Date(),
        });
      }),
      { portal: "admin" },
    )
    .get(
      "/admin/complaints/:complaintNo/letter.pdf",
      async ({ viewer, csrf, request, params, set }) => {
        const complaintNo = complaintNoOf(params.complaintNo);
        const letter = complaintNo && (await complaintLetter(db, {}, complaintNo));
        return letter ? download(letter) : page(request, shell(viewer, csrf, "Not found"), notFound(set, "No resolution letter for this complaint."));
      },
      { portal: "admin" },
    )
    .get(
      "/admin/complaints/:complaintNo/documents/:position",
      async ({ viewer, csrf, request, params, set }) => {
        const complaintNo = complaintNoOf(params.complaintNo);
        const position = /^\d{1,3}$/.test(params.position) ? Number(params.position) : 0;
        const document = complaintNo && position && (await complaintDocument(db, {}, complaintNo, position));
        return document ? download(document) : page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such document."));
      },
      { portal: "admin" },
    );
};
