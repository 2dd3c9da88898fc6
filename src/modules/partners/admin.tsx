import { Elysia } from "elysia";
import { type PartnerRow, PartnerRows, PartnersPage } from "../../../views/admin/admin";
import { normaliseUuid } from "../../core/ids";
import type { Database } from "../../db/client";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { type Audited, createPartner, listPartners, setEnrichment, setSuspended } from "./service";

/** The account changes an administrator can make from the partner list (each writes its audit row). */
const CHANGES: Record<string, (db: Database, partnerId: string, audit: Audited) => Promise<void>> = {
  "enrichment-on": (db, id, audit) => setEnrichment(db, id, true, audit),
  "enrichment-off": (db, id, audit) => setEnrichment(db, id, false, audit),
  suspend: (db, id, audit) => setSuspended(db, id, true, audit),
  reinstate: (db, id, audit) => setSuspended(db, id, false, audit),
};

/** The operator's partner administration: create partners, activate vehicle checks, suspend. */
export const partnerAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const rows = async (): Promise<PartnerRow[]> => (await listPartners(db)).map(({ keys: _keys, ...p }) => p);
  const partnersPage = async (request: Request, viewer: PortalViewer, csrf: string, props: Omit<Parameters<typeof PartnersPage>[0], "rows" | "csrf">) =>
    page(request, { title: "Partners", active: "partners", viewer, csrf }, <PartnersPage rows={await rows()} csrf={csrf} {...props} />);

  return new Elysia({ name: "admin-partners" })
    .use(portalSession(deps))
    .get("/admin/partners", ({ viewer, csrf, request }) => partnersPage(request, viewer, csrf, { values: {} }), { portal: "admin" })
    .post(
      "/admin/partners",
      async ({ viewer, csrf, request, body, set }) => {
        const form = formValues(body);
        try {
          const input = { name: form.name ?? "", email: form.email?.trim() || undefined, enrichment: form.enrichment === "on" };
          const created = await createPartner(db, input, { actor: viewer, now: new Date() });
          return partnersPage(request, viewer, csrf, { values: {}, created });
        } catch (error) {
          set.status = 400;
          return partnersPage(request, viewer, csrf, { values: form, problem: problemOf(error) });
        }
      },
      { portal: "admin" },
    )
    .post(
      "/admin/partners/:id",
      async ({ viewer, csrf, params, body, set }) => {
        const asked = formValues(body).change ?? "";
        // An own entry only: "constructor" or "__proto__" name what every object inherits, not a change.
        const change = Object.hasOwn(CHANGES, asked) ? CHANGES[asked] : undefined;
        const partnerId = normaliseUuid(params.id);
        if (!change || !partnerId) {
          set.status = 400;
          return <p class="problem" safe>{`Unknown change: choose one of ${Object.keys(CHANGES).join(", ")}.`}</p>;
        }
        const target = (await listPartners(db)).find((p) => p.partnerId === partnerId);
        if (!target || target.admin) {
          set.status = 404;
          return "";
        }
        await change(db, partnerId, { actor: viewer, now: new Date() });
        return <PartnerRows rows={await rows()} csrf={csrf} />;
      },
      { portal: "admin" },
    );
};
