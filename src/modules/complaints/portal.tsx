import { Elysia } from "elysia";
import { COMPLAINT_DOCUMENT_INPUTS, ComplaintForm, ComplaintList, ComplaintPage } from "../../../views/complaints/complaints";
import { publicUrl } from "../../core/config";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { download, notFound, redirectTo, refusedAsNull } from "../../portal/kit";
import { formValues, givenFields, page, problemOf, typedValue } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { watToday } from "../../products/policy-helpers";
import { COMPLAINT_CATEGORIES } from "./categories";
import { addSeed, complaintNoOf, decodedDocuments, fileSeed, fileSeedFrom, parseComplaintSeed, uploadedDocuments } from "./model";
import { complaintHref, complaintPage, complaintRow } from "./presenter";
import { complaintClock } from "./rules";
import {
  addNote,
  type ComplaintDetail,
  complaintDetail,
  complaintDocument,
  complaintLetter,
  fileComplaint,
  listComplaints,
  withdrawComplaint,
} from "./service";

const NO_COMPLAINT = "No complaint with this number on your account.";

/** The partner's complaint pages: the list, the form, a complaint with what the partner may add, its letter and documents. */
export const complaintPortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const clock = complaintClock(deps.config);
  const baseUrl = publicUrl(deps.config);
  const maxBytes = deps.config.MAX_DOCUMENT_BYTES;
  const shell = (viewer: PortalViewer, csrf: string, title: string) => ({ title, active: "complaints", viewer, csrf });
  const complaintOf = (viewer: PortalViewer, raw: string) => {
    const complaintNo = complaintNoOf(raw);
    return complaintNo ? complaintDetail(db, { partnerId: viewer.partnerId }, complaintNo).catch(refusedAsNull) : null;
  };
  const detail = (
    complaint: ComplaintDetail,
    csrf: string,
    extra: { values?: Record<string, string | undefined>; problem?: ReturnType<typeof problemOf>; done?: string } = {},
  ) => {
    const open = complaint.status !== "resolved" && complaint.status !== "withdrawn";
    const base = complaintHref("partner", complaint.complaintNo);
    return (
      <ComplaintPage
        complaint={complaintPage(complaint, "partner", watToday(new Date()), clock)}
        backHref="/portal/complaints"
        actions={{ csrf, ...(open ? { add: `${base}/add`, withdraw: `${base}/withdraw` } : {}), ...extra }}
      />
    );
  };

  return new Elysia({ name: "portal-complaints" })
    .use(portalSession(deps))
    .get(
      "/portal/complaints",
      async ({ viewer, csrf, request }) => {
        const today = watToday(new Date());
        const rows = (await listComplaints(db, { partnerId: viewer.partnerId })).map((c) => complaintRow(c, "partner", today, clock));
        return page(
          request,
          shell(viewer, csrf, "Complaints"),
          <ComplaintList
            title="Complaints"
            rows={rows}
            newHref="/portal/complaints/new"
            intro="Your customers' complaints and where each stands: open ones first, the one due soonest at the top."
          />,
        );
      },
      { portal: "partner" },
    )
    .get(
      "/portal/complaints/new",
      ({ viewer, csrf, request }) =>
        page(request, shell(viewer, csrf, "File a complaint"), <ComplaintForm values={{}} csrf={csrf} categories={COMPLAINT_CATEGORIES} />),
      { portal: "partner" },
    )
    .post(
      "/portal/complaints",
      async ({ viewer, csrf, request, body, set }) => {
        const values = formValues(body);
        try {
          const seed = parseComplaintSeed(fileSeed, fileSeedFrom(values, await uploadedDocuments(body, COMPLAINT_DOCUMENT_INPUTS)));
          const { complaint } = await fileComplaint(db, {
            partnerId: viewer.partnerId,
            mode: viewer.mode,
            seed,
            documents: decodedDocuments(seed.documents, maxBytes),
            by: "partner",
            now: new Date(),
            clock,
            baseUrl,
            actor: viewer,
          });
          return redirectTo(request, set, complaintHref("partner", complaint.complaintNo));
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(
            request,
            shell(viewer, csrf, "File a complaint"),
            <ComplaintForm values={values} problem={problem} csrf={csrf} categories={COMPLAINT_CATEGORIES} />,
          );
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/complaints/:complaintNo",
      async ({ viewer, csrf, request, params, set }) => {
        const complaint = await complaintOf(viewer, params.complaintNo);
        if (!complaint) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_COMPLAINT));
        return page(request, shell(viewer, csrf, `Complaint ${complaint.complaintNo}`), detail(complaint, csrf));
      },
      { portal: "partner" },
    )
    .post(
      "/portal/complaints/:complaintNo/add",
      async ({ viewer, csrf, request, params, body, set }) => {
        const complaint = await complaintOf(viewer, params.complaintNo);
        if (!complaint) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_COMPLAINT));
        const values = formValues(body);
        const title = `Complaint ${complaint.complaintNo}`;
        try {
          const files = await uploadedDocuments(body, COMPLAINT_DOCUMENT_INPUTS);
          const seed = parseComplaintSeed(
            addSeed,
            givenFields({ complaintNo: complaint.complaintNo, note: typedValue(values.note), documents: files.length ? files : undefined }),
          );
          const added = await addNote(db, {
            scope: { partnerId: viewer.partnerId },
            complaintNo: seed.complaintNo,
            kind: "partner",
            body: seed.note,
            documents: decodedDocuments(seed.documents, maxBytes),
            by: viewer.email,
            actor: viewer,
            now: new Date(),
          });
          return page(request, shell(viewer, csrf, title), detail(added, csrf, { done: "Your information was added to the complaint." }));
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(request, shell(viewer, csrf, title), detail(complaint, csrf, { values, problem }));
        }
      },
      { portal: "partner" },
    )
    .post(
      "/portal/complaints/:complaintNo/withdraw",
      async ({ viewer, csrf, request, params, set }) => {
        const complaint = await complaintOf(viewer, params.complaintNo);
        if (!complaint) return page(request, shell(viewer, csrf, "Not found"), notFound(set, NO_COMPLAINT));
        const title = `Complaint ${complaint.complaintNo}`;
        try {
          const withdrawn = await withdrawComplaint(db, {
            partnerId: viewer.partnerId,
            complaintNo: complaint.complaintNo,
            by: "partner",
            actor: viewer,
            now: new Date(),
            baseUrl,
          });
          return page(request, shell(viewer, csrf, title), detail(withdrawn, csrf, { done: "The complaint was withdrawn." }));
        } catch (error) {
          const problem = problemOf(error);
          set.status = error instanceof CommandError ? error.status : 400;
          return page(
            request,
            shell(viewer, csrf, title),
            detail(await complaintDetail(db, { partnerId: viewer.partnerId }, complaint.complaintNo), csrf, { problem }),
          );
        }
      },
      { portal: "partner" },
    )
    .get(
      "/portal/complaints/:complaintNo/letter.pdf",
      async ({ viewer, csrf, request, params, set }) => {
        const complaintNo = complaintNoOf(params.complaintNo);
        const letter = complaintNo && (await complaintLetter(db, { partnerId: viewer.partnerId }, complaintNo));
        return letter
          ? download(letter)
          : page(request, shell(viewer, csrf, "Not found"), notFound(set, "No resolution letter for this complaint on your account."));
      },
      { portal: "partner" },
    )
    .get(
      "/portal/complaints/:complaintNo/documents/:position",
      async ({ viewer, csrf, request, params, set }) => {
        const complaintNo = complaintNoOf(params.complaintNo);
        const position = /^\d{1,3}$/.test(params.position) ? Number(params.position) : 0;
        const document = complaintNo && position && (await complaintDocument(db, { partnerId: viewer.partnerId }, complaintNo, position));
        return document ? download(document) : page(request, shell(viewer, csrf, "Not found"), notFound(set, "No such document on your account."));
      },
      { portal: "partner" },
    );
};
