// The certificate's facts and file types, below the renderers and the text hygiene that all read them.
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
  /** A policy no longer in force says so on the certificate, e.g. "CANCELLED from 1 Dec 2026". */
  status?: string;
  /** A changed policy's certificate version, e.g. "2, after the change of 25 Nov 2026" (absent on the first). */
  version?: string;
}

export type CertificateType = "pdf" | "docx" | "jpg";

export const CERTIFICATE_MIME: Record<CertificateType, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  jpg: "image/jpeg",
};
