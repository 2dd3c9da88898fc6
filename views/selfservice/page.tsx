import type { Children } from "@kitajs/html";
import { dateTime, naira } from "../format";
import { PageHead } from "../layout";

/** One policy as its holder reads it. */
export interface CoverCard {
  title: string;
  policyNo: string | null;
  standing: string;
  period: string;
  certificateUrl: string | null;
  test: boolean;
}

/** One claim as its claimant reads it: where it stands, in words, and what happened when. */
export interface ClaimCard {
  claimNo: string;
  policyNo: string | null;
  standing: string;
  note: string | null;
  claimedKobo: number;
  payableKobo: number | null;
  steps: { words: string; at: Date }[];
}

export interface PolicyholderPage {
  brand: { name: string; logoPath: string | null; supportEmail: string | null; supportPhone: string | null };
  name: string;
  expiresAt: Date;
  cover: CoverCard[];
  claims: ClaimCard[];
}

/** The page's frame: the partner's name and logo on top, their support contact at the foot. No script: it works without JavaScript. */
function Frame(props: { title: string; brand: PolicyholderPage["brand"] | null; children: Children }) {
  const b = props.brand;
  return (
    <>
      {"<!doctype html>"}
      <html lang="en">
        <PageHead title={props.title} />
        <body class="self-service">
          <header>
            {b?.logoPath ? <img src={b.logoPath} alt="" height="32" /> : ""}
            <strong safe>{b?.name ?? "Your insurance"}</strong>
          </header>
          <main>{props.children}</main>
          {b && (b.supportPhone || b.supportEmail) ? (
            <footer class="muted">
              <p>
                Questions? Contact <span safe>{b.name}</span>
                {b.supportPhone ? (
                  <>
                    {" on "}
                    <a href={`tel:${b.supportPhone}`} safe>
                      {b.supportPhone}
                    </a>
                  </>
                ) : (
                  ""
                )}
                {b.supportEmail ? (
                  <>
                    {" or "}
                    <a href={`mailto:${b.supportEmail}`} safe>
                      {b.supportEmail}
                    </a>
                  </>
                ) : (
                  ""
                )}
                .
              </p>
            </footer>
          ) : (
            ""
          )}
        </body>
      </html>
    </>
  );
}

/** GET /my/<token>: the policyholder's own page, phone first. */
export function PolicyholderPageView(props: PolicyholderPage) {
  return (
    <Frame title="Your insurance" brand={props.brand}>
      <h1 safe>{`Hello, ${props.name}`}</h1>
      <p class="muted" safe>{`This page is yours alone: its link works until ${dateTime(props.expiresAt)}. Do not share it.`}</p>
      <section aria-labelledby="cover-title">
        <h2 id="cover-title">Your cover</h2>
        {props.cover.length ? (
          props.cover.map((c) => (
            <article class="card">
              <h3 safe>{c.title}</h3>
              <p>
                <strong safe>{c.standing}</strong>
                {c.test ? <span class="muted"> (a test policy: no real cover)</span> : ""}
              </p>
              <dl>
                {c.policyNo ? (
                  <>
                    <dt>Policy number</dt>
                    <dd safe>{c.policyNo}</dd>
                  </>
                ) : (
                  ""
                )}
                <dt>Cover</dt>
                <dd safe>{c.period}</dd>
              </dl>
              {c.certificateUrl ? (
                <p>
                  <a href={c.certificateUrl}>Download your certificate</a>
                </p>
              ) : (
                ""
              )}
            </article>
          ))
        ) : (
          <p>You have no policy with us yet.</p>
        )}
      </section>
      <section aria-labelledby="claims-title">
        <h2 id="claims-title">Your claims</h2>
        {props.claims.length ? (
          props.claims.map((c) => (
            <article class="card">
              <h3 safe>{`Claim ${c.claimNo}`}</h3>
              <p>
                <strong safe>{c.standing}</strong>
              </p>
              {c.note ? <p safe>{c.note}</p> : ""}
              <dl>
                {c.policyNo ? (
                  <>
                    <dt>Policy</dt>
                    <dd safe>{c.policyNo}</dd>
                  </>
                ) : (
                  ""
                )}
                <dt>Amount claimed</dt>
                <dd safe>{naira(c.claimedKobo)}</dd>
                {c.payableKobo === null ? (
                  ""
                ) : (
                  <>
                    <dt>To be paid to you</dt>
                    <dd safe>{naira(c.payableKobo)}</dd>
                  </>
                )}
              </dl>
              <h4>What has happened</h4>
              <ol>
                {c.steps.map((s) => (
                  <li safe>{`${dateTime(s.at)}: ${s.words}`}</li>
                ))}
              </ol>
            </article>
          ))
        ) : (
          <p>You have made no claim.</p>
        )}
      </section>
    </Frame>
  );
}

/** A link that opens nothing: expired (ask for a new one) or not one of ours. */
export function LinkRefusedView(props: { expired: boolean }) {
  return (
    <Frame title={props.expired ? "This link has expired" : "This link does not work"} brand={null}>
      <h1>{props.expired ? "This link has expired" : "This link does not work"}</h1>
      <p>
        {props.expired
          ? "For your safety, links to your insurance page work for a day. Ask the company you bought your cover from for a new one, or open the link in their newest message."
          : "Check that you opened the whole link from your message. If it still does not work, ask the company you bought your cover from for a new one."}
      </p>
    </Frame>
  );
}
