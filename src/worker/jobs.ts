import type { Config } from "../core/config";
import type { Job } from "../core/job";
import type { Database } from "../db/client";
import { modules } from "../modules";
import { simulatedInsurer } from "../modules/issuance/underwriting";
import type { InsurerGateway } from "../modules/policies/types";

/** The background jobs of this service, as configured: every module's, from its manifest. */
export function serviceJobs(db: Database, config: Config, gateway: InsurerGateway = simulatedInsurer): Job[] {
  return modules.flatMap((module) => module.jobs?.({ db, config, gateway }) ?? []);
}
