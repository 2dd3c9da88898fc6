import { Layout } from "./layout";

export interface ErrorProps {
  title: string;
  message: string;
  /** Shown for a fault of ours, so support can find the request's log lines. */
  requestId?: string;
  back: { href: string; label: string };
}

/** What went wrong, in words, and the way back: the body of every 404, 403 and 500 page. */
export function ErrorPanel(props: ErrorProps) {
  return (
    <section class="card narrow" aria-labelledby="error-title">
      <h1 id="error-title" safe>
        {props.title}
      </h1>
      <p safe>{props.message}</p>
      {props.requestId ? (
        <p class="muted">
          Reference for support: <code safe>{props.requestId}</code>
        </p>
      ) : (
        ""
      )}
      <p>
        <a href={props.back.href} safe>
          {props.back.label}
        </a>
      </p>
    </section>
  );
}

/** The same as a whole page, for a visitor who is not signed in (or whose session is not known). */
export const ErrorPage = (props: ErrorProps) => (
  <Layout title={props.title}>
    <ErrorPanel {...props} />
  </Layout>
);

/** The words of each error page, so every surface says the same thing. */
export const ERRORS = {
  notFound: { title: "Page not found", message: "There is no page at this address. The link may be mistyped, or the page may have moved." },
  forbidden: { title: "Not available", message: "This page is not available to your account." },
  expiredForm: { title: "Form expired", message: "This form has expired or did not come from this portal. Reload the page and try again." },
  unavailable: { title: "Temporarily unavailable", message: "The service is temporarily unavailable: try again in a moment." },
  failed: {
    title: "Something went wrong",
    message: "We could not complete this request. Try again in a moment; if it keeps happening, tell support the reference below.",
  },
} as const;
