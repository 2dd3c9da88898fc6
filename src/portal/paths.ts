const PORTAL_PATH = /^\/(portal|admin|login|logout|reset)(?:\/|$)/;

/** The portal's paths: pages, not JSON (answers are HTML, also a refusal from app.ts's error handler). */
export const isPortalPath = (path: string) => PORTAL_PATH.test(path);

/** A portal path only a signed-in viewer may use: all of them but the sign-in and reset forms (which read their own bodies). */
export function isSignedInPath(path: string): boolean {
  const area = PORTAL_PATH.exec(path)?.[1];
  return area !== undefined && area !== "login" && area !== "reset";
}
