import { Elysia } from "elysia";
import { type PartnerRow, PartnerRows, PartnersPage } from "../../../views/admin/admin";
import { normaliseUuid } from "../../core/ids";
import type { Database } from "../../db/client";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { portalSession } from "../../portal/session";
import { recordAudit } from "../audit/service";
import { createPartner, listPartners, setEnrichment, setSuspended } from "./service";

/** The account changes an administrator can make from the partner list. */
const CHANGES: Record<string, { apply: (db: Database, partnerId: string) => Promise<void>; action: string }> = {
  "enrichment-on": { apply: (db, id) => setEnrichment(db, id, true), action: "partner.enrichment_on" },
  "enrichment-off": { apply: (db, id) => setEnrichment(db, id, false), action: "partner.enrichment_off" },
  suspend: { apply: (db, id) => setSuspended(db, id, true), action: "partner.suspend" },
  reinstate: { apply: (db, id) => setSuspended(db, id, false), action: "partner.reinstate" },
};

/** The operator's partner administration: create partners, activate vehicle checks, suspend. */
export const partnerAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  const rows = async (): Promise<PartnerRow[]> => (await listPartners(db)).map(({ keys: _keys, ...p }) => p);
  return new Elysia({ name: "admin-partners" })
    .use(portalSession(deps))
    .get(
      "/admin/partners",
      async ({ viewer, csrf, request }) =>
        page(request, { title: "Partners", active: "partners", viewer, csrf }, <PartnersPage rows={await rows()} csrf={csrf} values={{}} />),
      {
        portal: "admin",
      },
    )
    .post(
      "/admin/partners",
      async ({ viewer, csrf, request, body, set }) => {
        const form = formValues(body);
        try {
          const created = await createPartner(db, { name: form.name ?? "", email: form.email?.trim() || undefined, enrichment: form.enrichment === "on" });
          await recordAudit(db, viewer, { action: "partner.create", subject: created.name, partnerId: created.partnerId }, new Date());
          return page(
            request,
            { title: "Partners", active: "partners", viewer, csrf },
            <PartnersPage rows={await rows()} csrf={csrf} values={{}} created={created} />,
          );
        } catch (error) {
          set.status = 400;
          return page(
            request,
            { title: "Partners", active: "partners", viewer, csrf },
            <PartnersPage rows={await rows()} csrf={csrf} values={form} problem={problemOf(error)} />,
          );
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
        await change.apply(db, partnerId);
        await recordAudit(db, viewer, { action: change.action, subject: target.name, partnerId }, new Date());
        return <PartnerRows rows={await rows()} csrf={csrf} />;
      },
      { portal: "admin" },
    );
};
