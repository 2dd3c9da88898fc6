/**
 * Certificate documents: PDF (pdf-lib), DOCX (docx) and JPG (@napi-rs/canvas), each showing the
 * same facts and the verification URL as text and QR code. Every string is cleaned first
 * (text.ts), so user text cannot break a document; the PDF and JPG draw in an embedded Unicode
 * font (DejaVu Sans, loaded once per process), so "₦" and Yoruba names print as written.
 */
import { renderDocx } from "./docx";
import { renderJpg } from "./jpg";
import type { CertificateModel, CertificateType } from "./model";
import { renderPdf } from "./pdf";
import { cleanModel } from "./text";

const RENDERERS: Record<CertificateType, (m: ReturnType<typeof cleanModel>) => Promise<Uint8Array>> = {
  pdf: renderPdf,
  docx: renderDocx,
  jpg: renderJpg,
};

/** Renders the certificate as the given type; the bytes are a complete file of CERTIFICATE_MIME[type]. */
export async function renderCertificate(model: CertificateModel, type: CertificateType): Promise<Uint8Array> {
  const render = RENDERERS[type];
  if (!render) throw new Error(`unknown certificate type: ${String(type)}`);
  return render(cleanModel(model));
}
