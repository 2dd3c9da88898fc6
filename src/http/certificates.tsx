import { Elysia } from "elysia";
import { coverPeriod } from "../../views/format";
import { VerifyPage } from "../../views/verify";
import { certificateFor, insuredName } from "../modules/certificates/service";
import { findConsumer } from "../modules/consumers/service";
import { findPolicyByCertificateToken, findPolicyByNumber } from "../modules/policies/service";
import { productName } from "../products";
import type { AppDeps } from "./context";

/** Initials and surname only: the public page confirms a certificate without exposing the person. */
const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .map((part, i, all) => (i === all.length - 1 ? part : `${part[0]}.`))
    .join(" ");

/** certUrl (the hosted certificate behind an unguessable token) and the public verification page. */
export const certificateRoutes = (deps: AppDeps) =>
  new Elysia({ name: "certificates" })
    .get("/certificates/:token", async ({ params, set }) => {
      const policy = await findPolicyByCertificateToken(deps.database.db, params.token);
      if (policy?.status !== "a") {
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
      const policyNo = decodeURIComponent(params.policyNo).slice(0, 64);
      const policy = await findPolicyByNumber(deps.database.db, policyNo);
      if (!policy) {
        set.status = 404;
        return <VerifyPage policy={null} policyNo={policyNo} />;
      }
      const consumer = await findConsumer(deps.database.db, policy.partnerId, policy.consumerId);
      const now = new Date();
      const inForce = policy.status === "a" && policy.coverStart <= now && now < policy.coverEnd;
      const statusText =
        policy.status === "l"
          ? "lapsed"
          : policy.status !== "a"
            ? "not in force"
            : inForce
              ? "valid and in force"
              : now < policy.coverStart
                ? "valid, cover not started yet"
                : "expired";
      return (
        <VerifyPage
          policyNo={policyNo}
          policy={{
            policyNo,
            valid: inForce || (policy.status === "a" && now < policy.coverStart),
            statusText,
            productName: productName(policy.productCode),
            insuredInitials: initials(insuredName(consumer?.profile ?? {})),
            cover: coverPeriod(policy.coverStart, policy.coverEnd),
            specimen: policy.mode === "test",
          }}
        />
      );
    });
