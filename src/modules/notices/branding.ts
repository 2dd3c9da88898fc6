/** A partner's branding of their messages: the name, logo and colour of an e-mail, the support contact. */
import { eq } from "drizzle-orm";
import { type Config, publicUrl } from "../../core/config";
import { decodeDocument } from "../../core/documents";
import { CommandError } from "../../core/errors";
import type { Database, Executor } from "../../db/client";
import { type AuditActor, recordAudit } from "../audit";
import { partnerBranding, partners } from "../partners";

/** A logo is small: it is fetched with every e-mail opened. */
const MAX_LOGO_BYTES = 100 * 1024;
/** The service's own colour, where a partner chose none. */
const DEFAULT_COLOUR = "#1f4e79";

export interface Brand {
  partnerId: string;
  name: string;
  colour: string;
  supportEmail: string | null;
  supportPhone: string | null;
  /** Where e-mails load the logo from; null without one. */
  logoUrl: string | null;
  /** The same, from the portal's own pages. */
  logoPath: string | null;
  /** What the Branding page shows as typed (the partner's own name without a display name of their own). */
  displayName: string | null;
}

/** Where a partner's logo is served (portal.tsx): the version keeps mail clients from showing an old one. */
const logoPath = (partnerId: string, at: Date) => `/brand/${partnerId}/logo?v=${at.getTime()}`;

/** A partner's brand, with the defaults where they set nothing. */
export async function brandOf(db: Executor, config: Config, partnerId: string): Promise<Brand> {
  const [row] = await db
    .select({
      partnerName: partners.name,
      displayName: partnerBranding.displayName,
      colour: partnerBranding.colour,
      supportEmail: partnerBranding.supportEmail,
      supportPhone: partnerBranding.supportPhone,
      hasLogo: partnerBranding.logoMime,
      updatedAt: partnerBranding.updatedAt,
    })
    .from(partners)
    .leftJoin(partnerBranding, eq(partnerBranding.partnerId, partners.id))
    .where(eq(partners.id, partnerId));
  if (!row) throw new CommandError(404, "no such partner");
  return {
    partnerId,
    name: row.displayName || row.partnerName,
    displayName: row.displayName,
    colour: row.colour ?? DEFAULT_COLOUR,
    supportEmail: row.supportEmail,
    supportPhone: row.supportPhone,
    ...(row.hasLogo && row.updatedAt
      ? { logoPath: logoPath(partnerId, row.updatedAt), logoUrl: `${publicUrl(config)}${logoPath(partnerId, row.updatedAt)}` }
      : { logoPath: null, logoUrl: null }),
  };
}

/** The logo's bytes, for its public address; null without one. */
export async function brandLogo(db: Executor, partnerId: string) {
  const [row] = await db
    .select({ logo: partnerBranding.logo, mime: partnerBranding.logoMime })
    .from(partnerBranding)
    .where(eq(partnerBranding.partnerId, partnerId));
  return row?.logo && row.mime ? { bytes: row.logo, mime: row.mime } : null;
}

interface BrandingInput {
  displayName?: string;
  colour?: string;
  supportEmail?: string;
  supportPhone?: string;
  /** A new logo, base64 (the form's upload); absent keeps the one on file. */
  logo?: string;
  removeLogo?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+[1-9][0-9]{7,14}$/;

/** Checked branding, ready to store: each refusal names its field. */
function checkedBranding(input: BrandingInput) {
  const text = (value: string | undefined) => value?.trim() || null;
  const displayName = text(input.displayName);
  if (displayName && displayName.length > 60) throw new CommandError(400, "The display name is too long: at most 60 characters", "displayName");
  const colour = text(input.colour)?.toLowerCase() ?? null;
  if (colour && !/^#[0-9a-f]{6}$/.test(colour)) throw new CommandError(400, "The colour must be written #rrggbb, e.g. #1f4e79", "colour");
  const supportEmail = text(input.supportEmail)?.toLowerCase() ?? null;
  if (supportEmail && !EMAIL.test(supportEmail)) throw new CommandError(400, "The support e-mail is not an e-mail address", "supportEmail");
  const supportPhone = text(input.supportPhone)?.replace(/[\s-]/g, "") ?? null;
  if (supportPhone && !PHONE.test(supportPhone))
    throw new CommandError(400, "The support phone must be written in international form, e.g. +2348001234567", "supportPhone");
  let logo: { bytes: Uint8Array; mime: "image/png" | "image/jpeg" } | null | undefined;
  if (input.removeLogo) logo = null;
  else if (input.logo) {
    const decoded = decodeDocument(input.logo, "logo", MAX_LOGO_BYTES);
    if (decoded.mime !== "image/png" && decoded.mime !== "image/jpeg") throw new CommandError(415, "The logo must be a PNG or JPEG image", "logo");
    logo = { bytes: decoded.bytes, mime: decoded.mime };
  }
  return { displayName, colour, supportEmail, supportPhone, logo };
}

/** Save a partner's branding (the logo kept unless replaced or removed), with an audit row. */
export async function saveBranding(db: Database, partnerId: string, input: BrandingInput, actor: AuditActor, now: Date): Promise<void> {
  const { logo, ...fields } = checkedBranding(input);
  const logoColumns = logo === undefined ? {} : { logo: logo?.bytes ?? null, logoMime: logo?.mime ?? null };
  await db.transaction(async (tx) => {
    await tx
      .insert(partnerBranding)
      .values({ partnerId, ...fields, ...logoColumns, updatedAt: now })
      .onConflictDoUpdate({ target: partnerBranding.partnerId, set: { ...fields, ...logoColumns, updatedAt: now } });
    await recordAudit(
      tx,
      actor,
      { action: "notice.branding_save", subject: fields.displayName ?? "Branding", details: { logo: logo === undefined ? "kept" : logo ? "new" : "removed" } },
      now,
    );
  });
}
