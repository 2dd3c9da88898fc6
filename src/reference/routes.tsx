import { Elysia } from "elysia";
import { commandRegistry } from "../assembly/commands";
import { publicUrl } from "../core/config";
import type { AppDeps } from "../http/context";
import { ReferencePage } from "./docs";
import { referenceOf } from "./model";
import { openApiDocument } from "./openapi";

/**
 * GET /openapi.json and GET /docs: the command reference, public like the protocol it describes.
 * Both are built once per app from the registry (they change only with the code).
 */
export const referenceRoutes = (deps: AppDeps) => {
  let document: string | undefined;
  let page: string | undefined;
  return new Elysia({ name: "reference" })
    .get("/openapi.json", ({ set }) => {
      document ??= JSON.stringify(openApiDocument(commandRegistry.definitions, publicUrl(deps.config)));
      set.headers["content-type"] = "application/json; charset=utf-8";
      // Tools (editors, generators) fetch it from other origins.
      set.headers["access-control-allow-origin"] = "*";
      set.headers["cache-control"] = "public, max-age=300";
      return document;
    })
    .get("/docs", ({ set }) => {
      page ??= String(<ReferencePage reference={referenceOf(commandRegistry.definitions)} definitions={commandRegistry.definitions} />);
      set.headers["content-type"] = "text/html; charset=utf-8";
      set.headers["cache-control"] = "public, max-age=300";
      return page;
    });
};
