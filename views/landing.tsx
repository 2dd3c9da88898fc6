import { Layout } from "./layout";

/** GET / in a browser: what this service is and how to talk to it. */
export function Landing(props: { engine: string }) {
  return (
    <Layout title="Partner command service">
      <h1>Partner command service</h1>
      <p>
        Partners integrate over one endpoint: <code>POST /</code> with a JSON envelope. Every answer is HTTP 200 with the outcome in <code>exctnFdbck</code>.
      </p>
      <pre tabindex="0">{`{ "userInfo": { "id": "<partner id>", "athrzt": { "id": "<authorization id>", "key": "<key>" } },
  "cmmnd": { "cmmnd": "dump ipck_vhcl-tprt-1111*PRMM", "seed": { "insrncDrtn": "1y" } } }`}</pre>
      <p>
        Every command, product, refusal and a tested example of each: the <a href="/docs">command reference</a> (also as <a href="/openapi.json">OpenAPI 3.1</a>
        ).
      </p>
      <p>
        Partner staff and the operator's administrators work in the <a href="/login">partner portal</a>: consumers, quotes, policies, claims, the wallet and
        keys.
      </p>
      <p class="muted">
        Service health: <a href="/healthz">/healthz</a> · database engine <span safe>{props.engine}</span>
      </p>
    </Layout>
  );
}
