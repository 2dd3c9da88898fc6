import type { Children } from "@kitajs/html";
import { Htmx } from "./htmx";

/** The <head> of every full page, public or portal. */
export function PageHead(props: {
  title: string;
  /** A script of this page's own, beside htmx. */
  script?: string;
}) {
  return (
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title safe>{props.title}</title>
      {/* No icon: without this the browser asks for /favicon.ico and logs the 404 on every page. */}
      <link rel="icon" href="/favicon.ico" />
      <link rel="stylesheet" href="/public/app.css" />
      <Htmx />
      {props.script ? <script src={props.script} defer></script> : ""}
    </head>
  );
}

/** The page shell: every full-page response wraps its content in this. */
export function Layout(props: {
  title: string;
  /** The sign-in page does not link to itself. */
  signInLink?: boolean;
  children: Children;
}) {
  return (
    <>
      {"<!doctype html>"}
      <html lang="en">
        <PageHead title={props.title} />
        <body>
          <header>
            <strong>Embedded Insurance · Partner Service</strong>
            {props.signInLink === false ? "" : <a href="/login">Partner portal: sign in</a>}
          </header>
          <main>{props.children}</main>
        </body>
      </html>
    </>
  );
}
