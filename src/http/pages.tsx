import { Elysia } from "elysia";
import { Landing } from "../../views/landing";
import type { AppDeps } from "./context";

const publicDir = new URL("../../public/", import.meta.url);
const assetTypes: Record<string, string> = { css: "text/css; charset=utf-8", js: "text/javascript; charset=utf-8" };

/** Human-facing pages and their static assets (the portal grows here). */
export const pageRoutes = (deps: AppDeps) =>
  new Elysia({ name: "pages" })
    .get("/", ({ set }) => {
      set.headers["content-type"] = "text/html; charset=utf-8";
      return <Landing engine={deps.database.engine} />;
    })
    .get("/public/:file", async ({ params, set }) => {
      const file = Bun.file(new URL(params.file, publicDir));
      const ext = params.file.split(".").pop() ?? "";
      if (!/^[\w.-]+$/.test(params.file) || !assetTypes[ext] || !(await file.exists())) {
        set.status = 404;
        return "not found";
      }
      set.headers["content-type"] = assetTypes[ext];
      set.headers["cache-control"] = "public, max-age=3600";
      return file;
    });
