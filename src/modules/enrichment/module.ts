import { defineModule } from "../manifest";
import { enrichmentCommands } from "./commands";
import { vehiclePortal } from "./portal";
import { publishApprovedVehicles } from "./publication";
import { configuredRegistry } from "./registry";
import * as tables from "./schema";

/** Vehicle registry checks and the publication of approved vehicle policies to the registry. */
export const enrichmentModule = defineModule({
  name: "enrichment",
  commands: enrichmentCommands,
  routes: vehiclePortal,
  jobs: ({ db, config }) => {
    const registry = configuredRegistry(config);
    return registry ? [{ name: "registry publication", run: (now) => publishApprovedVehicles(db, registry, config.INSURER_NAME, now) }] : [];
  },
  tables,
  nav: [{ area: "portal", href: "/portal/vehicle", label: "Vehicle checks", key: "vehicle", order: 80, shownTo: (viewer) => viewer.enrichmentEnabled }],
});
