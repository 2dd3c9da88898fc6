import type { Children } from "@kitajs/html";

/** The page shell: every full-page response wraps its content in this. */
export function Layout(props: { title: string; children: Children }) {
  return (
    <>
      {"<!doctype html>"}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{props.title}</title>
          <link rel="stylesheet" href="/public/app.css" />
          <script src="/public/htmx.min.js" defer></script>
        </head>
        <body>
          <header>
            <strong>Embedded Insurance · Partner Service</strong>
          </header>
          <main>{props.children}</main>
        </body>
      </html>
    </>
  );
}
