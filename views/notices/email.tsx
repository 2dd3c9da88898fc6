/**
 * A notice's e-mail: the partner's header (logo, name, colour), the message, and the support contact
 * in the footer. Inline styles only: mail clients drop style sheets. `safeBodyHtml` is escaped already
 * (src/modules/notices/render.ts).
 */
export interface EmailBrand {
  name: string;
  colour: string;
  logoUrl: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
}

export function NoticeEmail(props: { brand: EmailBrand; subject: string; safeBodyHtml: string }) {
  const { brand, safeBodyHtml } = props;
  const contact = [brand.supportPhone, brand.supportEmail].filter(Boolean).join(" · ");
  return (
    <>
      {"<!doctype html>"}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <title safe>{props.subject}</title>
        </head>
        <body style="margin:0;padding:0;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1b1f24">
          <table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;margin:0 auto;background:#ffffff">
            <tr>
              <td style={`background:${brand.colour};padding:16px 24px;color:#ffffff;font-size:20px;font-weight:bold`}>
                {brand.logoUrl ? <img src={brand.logoUrl} alt="" height="40" style="vertical-align:middle;margin-right:12px;max-height:40px" /> : ""}
                <span safe>{brand.name}</span>
              </td>
            </tr>
            <tr>
              <td style="padding:24px;font-size:15px;line-height:1.5">{safeBodyHtml}</td>
            </tr>
            <tr>
              <td style="padding:16px 24px;border-top:1px solid #e1e4e8;font-size:13px;color:#57606a">
                <span safe>{brand.name}</span>
                {contact ? (
                  <>
                    {" · Questions? "}
                    <span safe>{contact}</span>
                  </>
                ) : (
                  ""
                )}
              </td>
            </tr>
          </table>
        </body>
      </html>
    </>
  );
}
