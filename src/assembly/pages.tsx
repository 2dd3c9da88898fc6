import { Elysia } from "elysia";
import { Landing } from "../../views/landing";
import type { AppDeps } from "../http/context";

const publicDir = new URL("../../public/", import.meta.url);
const assetTypes: Record<string, string> = { css: "text/css; charset=utf-8", js: "text/javascript; charset=utf-8" };

/** Human-facing pages and their static assets (the portal grows here). */
export const pageRoutes = (deps: AppDeps) =>
  new Elysia({ name: "pages" })
    .get("/", ({ set }) => {
      set.headers["content-type"] = "text/html; charset=utf-8";
      return <Landing engine={deps.database.engine} />;
    })
    // Browsers ask for it on every site; a 404 would fill the log and the console.
    .get("/favicon.ico", ({ set }) => {
      set.headers["content-type"] = "image/x-icon";
      set.headers["cache-control"] = "public, max-age=86400";
      return Bun.file(new URL("favicon.ico", publicDir));
    })
    .get("/public/:file", async ({ params, set }) => {
      // The name is checked before it becomes a URL or touches the disk, and no probe may
      // throw its way to a 500: anything but a plain "name.css"/"name.js" in public/ is a 404.
      // Elysia hands over null for a name that is not valid percent-encoding (%ff).
      const name: unknown = params.file;
      if (typeof name !== "string") {
        set.status = 404;
        return "not found";
      }
      const ext = /^[\w-]+(?:\.[\w-]+)*$/.test(name) && name.length <= 100 ? (name.split(".").pop() ?? "") : "";
      const type = Object.hasOwn(assetTypes, ext) ? assetTypes[ext] : undefined;
      const file = type ? await publicFile(name) : undefined;
      if (!type || !file) {
        set.status = 404;
        return "not found";
      }
      set.headers["content-type"] = type;
      set.headers["cache-control"] = "public, max-age=3600";
      return file;
    });

/** The file of that (already validated) name in public/, or undefined when absent or unreadable. */
const publicFile = async (name: string) => {
  try {
    const file = Bun.file(new URL(name, publicDir));
    return (await file.exists()) ? file : undefined;
  } catch {
    return undefined;
  }
};
