import { defineModule } from "../manifest";
import * as tables from "./schema";

/** Certificates of issued policies (served by src/http/certificates.tsx). */
export const certificatesModule = defineModule({ name: "certificates", tables });
