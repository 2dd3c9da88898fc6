import { Elysia } from "elysia";
import { VerifyPage } from "../../../views/verify";
import type { AppDeps } from "../../http/context";
import { findPolicyByCertificateToken, findPolicyByNumber, hasCertificate } from "../policies";
import { certificateFor } from "./service";
import { verificationOf } from "./verification";

/** A path segment decoded once more where it still holds escapes; a "%" that begins none is kept as typed (never a 500). */
function decodedOnce(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** certUrl (the hosted certificate behind an unguessable token) and the public verification page. */
export const certificateRoutes = (deps: AppDeps) =>
  new Elysia({ name: "certificates" })
    .get("/certificates/:token", async ({ params, set }) => {
      const policy = await findPolicyByCertificateToken(deps.database.db, params.token);
      // Cancelled and expired policies keep their certificate (docs/lifecycle.md); a cancelled one's says so.
      if (!policy || !hasCertificate(policy)) {
        set.status = 404;
        return { error: "no certificate at this address" };
      }
      const document = await certificateFor(deps.database.db, deps.config, policy);
      set.headers["content-type"] = document.mime;
      set.headers["content-disposition"] = `inline; filename="${policy.policyNo}.${document.type}"`;
      set.headers["cache-control"] = "private, no-store";
      return new Response(Buffer.from(document.content));
    })
    .get("/verify/:policyNo", async ({ params, set }) => {
      set.headers["content-type"] = "text/html; charset=utf-8";
      const policyNo = decodedOnce(params.policyNo).slice(0, 64);
      const policy = await findPolicyByNumber(deps.database.db, policyNo);
      if (!policy) {
        set.status = 404;
        return <VerifyPage policy={null} policyNo={policyNo} />;
      }
      return <VerifyPage policyNo={policyNo} policy={await verificationOf(deps.database.db, deps.config, policy, new Date())} />;
    });
