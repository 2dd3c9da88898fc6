/** What other modules may use of this one: they import nothing else of it (test/architecture.test.ts). */
export { certificateFaces } from "./fonts";
export {
  type CertificateDocument,
  certificateFor,
  certificateUrl,
  discardCertificates,
  renderCertificateFor,
  storeCertificate,
  verificationUrl,
} from "./service";
