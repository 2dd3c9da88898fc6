import { Elysia } from "elysia";
import { type PartnerRow, PartnerRows, PartnersPage } from "../../../views/admin/admin";
import { ConfirmStep } from "../../../views/portal/confirm";
import { normaliseUuid } from "../../core/ids";
import type { Database } from "../../db/client";
import type { AppDeps } from "../../http/context";
import { confirmation } from "../../portal/confirm";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { accountChangeDone, accountChangeStep } from "./presenter";
import { type Audited, createPartner, listPartners, setEnrichment, setSuspended } from "./service";

/** The account changes an administrator can make from the partner list (each writes its audit row). */
const CHANGES: Record<string, (db: Database, partnerId: string, audit: Audited) => Promise<void>> = {
  "enrichment-on": (db, id, audit) => setEnrichment(db, id, true, audit),
  "enrichment-off": (db, id, audit) => setEnrichment(db, id, false, audit),
  suspend: (db, id, audit) => setSuspended(db, id, true, audit),
  reinstate: (db, id, audit) => setSuspended(db, id, false, audit),
};

/** The changes that cut a partner off or let them back in: made only from their confirmation (docs/decisions.md, issue 36). */
const ASKED_FIRST = new Set(["suspend", "reinstate"]);

/** The operator's partner administration: create partners, activate vehicle checks, suspend. */
export const partnerAdmin = (deps: AppDeps) => {
  const db = deps.database.db;
  // The operator's own accounts are where its administrators sign in, not partners (/admin/administrators).
  const rows = async (): Promise<PartnerRow[]> => (await listPartners(db)).filter((p) => !p.admin).map(({ keys: _keys, admin: _admin, ...p }) => p);
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
      async ({ viewer, csrf, request, params, body, set }) => {
        const form = formValues(body);
        const asked = form.change ?? "";
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
        if (ASKED_FIRST.has(asked)) {
          const suspend = asked === "suspend";
          const step = confirmation(csrf, `partner.${asked}`, partnerId);
          if (!step.given(form))
            return page(
              request,
              { title: `${suspend ? "Suspend" : "Reinstate"} ${target.name}`, active: "partners", viewer, csrf },
              <ConfirmStep
                id="partners"
                level={1}
                {...accountChangeStep(target.name, suspend)}
                action={`/admin/partners/${partnerId}`}
                csrf={csrf}
                fields={{ change: asked, ...step.fields }}
              />,
            );
          await change(db, partnerId, { actor: viewer, now: new Date() });
          return partnersPage(request, viewer, csrf, { values: {}, done: accountChangeDone(target.name, suspend) });
        }
        await change(db, partnerId, { actor: viewer, now: new Date() });
        return <PartnerRows rows={await rows()} csrf={csrf} />;
      },
      { portal: "admin" },
    );
};
