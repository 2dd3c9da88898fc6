import { resolve } from "node:path";
import { Elysia } from "elysia";
import { RegistryCheck, type RegistryCheckProps, VehicleNotActivated, VehiclePage, VinDecode, type VinProps } from "../../../views/enrichment/vehicle";
import { CommandError } from "../../core/errors";
import type { AppDeps } from "../../http/context";
import { formValues, page, problemOf } from "../../portal/page";
import { type PortalViewer, portalSession } from "../../portal/session";
import { checkResult } from "./presenter";
import { configuredRegistry } from "./registry";
import { checkVehicleRegistry, decodeVin } from "./service";
import { vinDecoderAt } from "./vin";

/** Partner pages: vehicle checks (registry check by plate or policy number, VIN decode), when enrichment is activated. */
export const vehiclePortal = (deps: AppDeps) => {
  const db = deps.database.db;
  const shell = (viewer: PortalViewer, csrf: string) => ({ title: "Vehicle checks", active: "vehicle", viewer, csrf });
  const caller = (viewer: PortalViewer) => ({ partnerId: viewer.partnerId, mode: viewer.mode, actor: viewer });
  const statusOf = (error: unknown) => (error instanceof CommandError ? error.status : 500);

  /** Without activation every vehicle route answers 403 with a page saying how to get it (as the JSON surface answers 403). */
  const notActivated = (request: Request, viewer: PortalViewer, csrf: string, set: { status?: number | string }) => {
    set.status = 403;
    return page(request, shell(viewer, csrf), <VehicleNotActivated />);
  };

  /** The page for a full load; the section alone for htmx. */
  const respond = (request: Request, viewer: PortalViewer, csrf: string, section: "check" | "vin", check: RegistryCheckProps, vin: VinProps) => {
    if (request.headers.get("hx-request") === "true")
      return page(request, shell(viewer, csrf), section === "check" ? <RegistryCheck {...check} /> : <VinDecode {...vin} />);
    return page(request, shell(viewer, csrf), <VehiclePage mode={viewer.mode} check={check} vin={vin} />);
  };

  return new Elysia({ name: "portal-enrichment" })
    .use(portalSession(deps))
    .get(
      "/portal/vehicle",
      ({ viewer, csrf, request, set }) => {
        if (!viewer.enrichmentEnabled) return notActivated(request, viewer, csrf, set);
        return page(request, shell(viewer, csrf), <VehiclePage mode={viewer.mode} check={{ values: {}, csrf }} vin={{ values: {}, csrf }} />);
      },
      { portal: "partner" },
    )
    .post(
      "/portal/vehicle/check",
      async ({ viewer, csrf, request, body, set }) => {
        if (!viewer.enrichmentEnabled) return notActivated(request, viewer, csrf, set);
        const values = formValues(body);
        const seed = { search_type: values.search_type?.trim() || undefined, value: values.value?.trim() ? values.value : undefined };
        let check: RegistryCheckProps;
        try {
          const answer = await checkVehicleRegistry(db, configuredRegistry(deps.config), caller(viewer), seed, new Date());
          check = { values, csrf, result: checkResult(answer, viewer.mode) };
        } catch (error) {
          set.status = statusOf(error);
          check = { values, csrf, problem: problemOf(error) };
        }
        return respond(request, viewer, csrf, "check", check, { values: {}, csrf });
      },
      { portal: "partner" },
    )
    .post(
      "/portal/vehicle/vin",
      async ({ viewer, csrf, request, body, set }) => {
        if (!viewer.enrichmentEnabled) return notActivated(request, viewer, csrf, set);
        const values = formValues(body);
        let vin: VinProps;
        try {
          const fields = await decodeVin(
            db,
            vinDecoderAt(resolve(deps.config.VIN_DATABASE)),
            caller(viewer),
            { vin: values.vin?.trim() || undefined },
            new Date(),
          );
          vin = { values, csrf, result: { vin: values.vin!.trim().toUpperCase(), fields: fields as Record<string, string> } };
        } catch (error) {
          set.status = statusOf(error);
          vin = { values, csrf, problem: problemOf(error) };
        }
        return respond(request, viewer, csrf, "vin", { values: {}, csrf }, vin);
      },
      { portal: "partner" },
    );
};
