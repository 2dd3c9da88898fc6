import { SharedCache } from "../../db/shared-cache";

/** The row authentication reads for a key id (apiKeys ⨝ partners). */
export interface KeyRecord {
  keyPartnerId: string;
  label: "test" | "live" | "legacy";
  keyHash: string;
  revokedAt: Date | null;
  name: string;
  isAdmin: boolean;
  enrichmentEnabled: boolean;
  mode: "test" | "live";
  suspended: boolean;
}

/**
 * Verified-key lookups by authorization id, grouped by partner: every change to a partner's keys
 * or account (rotate, revoke, mode toggle, enrichment, suspension) forgets the partner everywhere.
 */
export const credentialCache = new SharedCache<KeyRecord>("partner_credentials");
