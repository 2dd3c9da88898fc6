import { defineModule } from "../manifest";
import * as tables from "./schema";

/** Portal sign-ins and the service's own secrets (the sign-in pages are the portal shell's: src/portal/auth-routes.tsx). */
export const accountsModule = defineModule({ name: "accounts", tables });
