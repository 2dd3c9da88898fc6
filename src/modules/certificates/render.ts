/**
 * Certificate documents: PDF (pdf-lib), DOCX (docx) and JPG (@napi-rs/canvas), each showing the
 * same facts and the verification URL as text and QR code. Every string is cleaned first
 * (text.ts), so user text cannot break a document; the PDF and JPG draw in an embedded Unicode
 * font (DejaVu Sans, loaded once per process), so "₦" and Yoruba names print as written.
 */
import { renderDocx } from "./docx";
import { renderJpg } from "./jpg";
import { renderPdf } from "./pdf";
import { cleanModel } from "./text";

export interface CertificateModel {
  /** Test mode: the document must say "SPECIMEN — TEST MODE" prominently (and not be mistakable for a real certificate). */
  specimen: boolean;
  insurerName: string;
  policyNo: string;
  productName: string; // e.g. "Marine import, basic (ICC C)"
  productCode: string; // e.g. "mrnn-stnd-1111"
  insuredName: string;
  partnerName: string; // who sold it
  coverStart: string; // display text, e.g. "22 Nov 2026"
  coverEnd: string;
  premium: string; // display text, e.g. "NGN 15,000.00"
  issuedAt: string; // display text, Nigerian local time
  printed: readonly (readonly [label: string, value: string])[]; // product lines, e.g. ["Proforma invoice", "PI-2026-0042"]
  verifyUrl: string; // e.g. https://host/verify/POL-... — printed as text AND as a QR code
}

export type CertificateType = "pdf" | "docx" | "jpg";

export const CERTIFICATE_MIME: Record<CertificateType, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  jpg: "image/jpeg",
};

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
