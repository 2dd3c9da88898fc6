import type { AnyElysia } from "elysia";
import type { PolicyLifecycleView } from "../../views/policies/policies";
import type { Config } from "../core/config";
import type { Job } from "../core/job";
import type { Database } from "../db/client";
import type { AppDeps } from "../http/context";
import type { CommandDefinition } from "../http/registry";
import type { NavEntry } from "../portal/navigation";
import type { InsurerGateway, PolicyRecord } from "./policies/types";

/** What a background job may need: the database, the configuration, and the insurer to underwrite with. */
interface JobContext {
  db: Database;
  config: Config;
  gateway: InsurerGateway;
}

/**
 * What the assembled service tells a module's pages: what a module cannot import, because it sits
 * above it (the registry that gathers it; a module higher in the order, docs/architecture.md).
 */
export interface ServiceFacts {
  /** Every command's grammar, in the reference's order. */
  commandGrammars: readonly string[];
  /** Partners' names by id, of these partners or of every one (the partners module's): for the audit log, which every module writes below it. */
  partnerNames(db: Database, partnerIds?: string[]): Promise<Map<string, string>>;
  /**
   * The policies of these partners' transaction references, with their ids and numbers (the policies
   * module's): the audit log names a policy by its reference and links it by its page, by its number.
   */
  policiesByReference(
    db: Database,
    refs: readonly { partnerId: string; reference: string }[],
  ): Promise<{ partnerId: string; reference: string; id: string; policyNo: string | null }[]>;
  /**
   * A consumer's policies, newest first, at most `limit` (the policies module's, above consumers, whose
   * table it references): for the consumer's page. `partnerId` limits them to one partner's.
   */
  policiesOfConsumer(db: Database, scope: { partnerId?: string }, consumerId: string, limit: number): Promise<PolicyRecord[]>;
  /**
   * What the lifecycle module (above issuance, whose renewals it issues) adds to a policy's page at
   * `base`: its cancellation, changes and renewals, and the links to act on them.
   */
  policyLifecycle(db: Database, policy: PolicyRecord, base: string, now: Date): Promise<PolicyLifecycleView>;
}

/**
 * Everything a module adds to the service, in one place (src/modules/<area>/module.ts): the app,
 * the worker and drizzle gather the manifests listed in src/modules/index.ts, and nothing
 * registers outside them (test/architecture.test.ts).
 */
export interface ModuleManifest {
  name: string;
  /** Its commands of the JSON endpoint (spec 4.2 and the documented extensions). */
  // biome-ignore lint/suspicious/noExplicitAny: commands of every seed type; each checks its own seed
  commands?: readonly CommandDefinition<any, any>[];
  /** Its portal and admin pages. */
  routes?: (deps: AppDeps, service: ServiceFacts) => AnyElysia;
  /** Its background jobs. */
  jobs?: (context: JobContext) => Job[];
  /** Its tables (its schema.ts), for drizzle-kit and the architecture test. */
  tables?: Record<string, unknown>;
  /** Its links in the portal's side navigation. */
  nav?: readonly NavEntry[];
}

/** A manifest, checked against the type (keeps each module's module.ts one object). */
export const defineModule = (manifest: ModuleManifest): ModuleManifest => manifest;
