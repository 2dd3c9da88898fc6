import { eq } from "drizzle-orm";
import { day } from "../../../views/format";
import type { Config } from "../../core/config";
import { publicUrl } from "../../core/config";
import { formatNaira } from "../../core/money";
import { coverDays, watTimestamp } from "../../core/time";
import type { Database, Executor } from "../../db/client";
import { findProduct, productName } from "../../products";
import { consumers } from "../consumers";
import { partners } from "../partners";
import type { PolicyRecord } from "../policies";
import { CERTIFICATE_MIME, type CertificateModel, type CertificateType } from "./model";
import { renderCertificate } from "./render";
import { certificates } from "./schema";

export interface CertificateDocument {
  type: CertificateType;
  mime: string;
  content: Uint8Array;
}

/** The name a certificate prints for a consumer: the organisation's, or the person's full name. */
export function insuredName(profile: Record<string, unknown>): string {
  const name = (profile.name ?? {}) as Record<string, string | undefined>;
  return name.brand ?? [name.first, name.middle, name.last].filter(Boolean).join(" ");
}

export const certificateUrl = (config: Config, policy: PolicyRecord) => `${publicUrl(config)}/certificates/${policy.certificateToken}`;
export const verificationUrl = (config: Config, policyNo: string) => `${publicUrl(config)}/verify/${encodeURIComponent(policyNo)}`;

/** The certificate of an approved policy: rendered on first need, then served from the database. */
export async function certificateFor(db: Database, config: Config, policy: PolicyRecord): Promise<CertificateDocument> {
  // A cancelled policy's certificate says so, with the cover as it now ends: drawn afresh, never the stored one.
  if (policy.status === "c") return renderCertificateFor(db, config, policy);
  const [stored] = await db.select().from(certificates).where(eq(certificates.policyId, policy.id));
  if (stored) return { type: stored.type, mime: CERTIFICATE_MIME[stored.type], content: stored.content };
  const document = await renderCertificateFor(db, config, policy);
  await storeCertificate(db, policy.id, document);
  return document;
}

/**
 * Render the certificate of `policy` (approved, with its policy number) without storing it. The
 * policy itself need not be stored yet: issuance renders before its transaction and stores the
 * document in it, so an answer carrying a certificate is never given for a change that failed.
 */
export async function renderCertificateFor(db: Executor, config: Config, policy: PolicyRecord): Promise<CertificateDocument> {
  const product = findProduct(policy.productCode);
  const { type } = product.family.policy.certificate(product.type);
  const [consumer] = await db.select({ profile: consumers.profile }).from(consumers).where(eq(consumers.id, policy.consumerId));
  const [partner] = await db.select({ name: partners.name }).from(partners).where(eq(partners.id, policy.partnerId));
  const cancelled = policy.status === "c" && policy.cancelledFrom;
  const cover = coverDays(policy.coverStart, cancelled || policy.coverEnd);
  const model: CertificateModel = {
    specimen: policy.mode === "test",
    insurerName: config.INSURER_NAME,
    policyNo: policy.policyNo!,
    productName: productName(policy.productCode),
    productCode: policy.productCode,
    insuredName: insuredName(consumer!.profile),
    partnerName: partner!.name,
    // The first and the last day of cover, as every page shows them (coverDays).
    coverStart: day(cover.firstDay),
    coverEnd: day(cover.lastDay),
    premium: formatNaira(policy.premiumKobo),
    // When it was issued: the decision, or (cancelled, the status time being the cancellation's) the request.
    issuedAt: `${watTimestamp(cancelled ? policy.createdAt : policy.statusAt)} WAT`,
    printed: policy.printed,
    verifyUrl: verificationUrl(config, policy.policyNo!),
    ...(cancelled ? { status: `CANCELLED from ${day(policy.cancelledFrom)}: no cover after ${day(cover.lastDay)}` } : {}),
    ...(policy.version > 1 ? { version: versionLine(policy) } : {}),
  };
  return { type, mime: CERTIFICATE_MIME[type], content: await renderCertificate(model, type) };
}

/** "2, after the change of 25 Nov 2026": the version a changed policy's certificate prints, and when it was made. */
const versionLine = (policy: PolicyRecord): string =>
  policy.versionAt ? `${policy.version}, after the change of ${day(policy.versionAt)}` : String(policy.version);

/** Forget a policy's stored certificates: its terms changed, and the next request draws the new version. */
export async function discardCertificates(tx: Executor, policyId: string): Promise<void> {
  await tx.delete(certificates).where(eq(certificates.policyId, policyId));
}

/** Keep a rendered certificate. A concurrent first request may have stored it already: keep theirs (identical terms). */
export async function storeCertificate(tx: Executor, policyId: string, document: CertificateDocument): Promise<void> {
  await tx.insert(certificates).values({ policyId, type: document.type, content: document.content }).onConflictDoNothing();
}
