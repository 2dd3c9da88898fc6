/**
 * htmx's configuration, the same on every page that loads it. The CSP forbids inline styles, so htmx
 * must never write one (the browser would log a violation): its indicator styles are off (the
 * stylesheet styles `.htmx-indicator` instead), and it does not carry `style` attributes over when it
 * settles a swap (it would copy any a script left on the old element, such as axe-core's empty ones).
 * Refusals come back as 4xx with the form and its messages: htmx must show them, not drop them.
 */
export const htmxConfig = {
  includeIndicatorStyles: false,
  attributesToSettle: ["class", "width", "height"],
  responseHandling: [
    { code: "204", swap: false },
    { code: "[23]..", swap: true },
    // A refusal (4xx) is an answer the page shows, not a failure: htmx logs nothing for it.
    { code: "4..", swap: true },
    { code: "5..", swap: true, error: true },
  ],
};

/** Loads htmx with its configuration: every page that uses htmx puts this in its <head>, never the script alone. */
export function Htmx() {
  return (
    <>
      <meta name="htmx-config" content={JSON.stringify(htmxConfig)} />
      <script src="/public/htmx.min.js" defer></script>
    </>
  );
}
