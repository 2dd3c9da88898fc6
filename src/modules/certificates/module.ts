import { defineModule } from "../manifest";
import { certificateRoutes } from "./routes";
import * as tables from "./schema";

/** Certificates of issued policies: the hosted certificate (certUrl) and the public verification page. */
export const certificatesModule = defineModule({ name: "certificates", routes: (deps) => certificateRoutes(deps), tables });
