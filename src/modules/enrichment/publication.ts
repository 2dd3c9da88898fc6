import { eq } from "drizzle-orm";
import { coverDays } from "../../core/time";
import type { Database } from "../../db/client";
import { findProduct } from "../../products";
import { awaitingRegistry, policies, storedTerms } from "../policies";
import type { VehicleRegistry } from "./registry";

/**
 * The background job that publishes approved vehicle policies to the vehicle registry (the
 * sandbox registry takes them), so a registry check of our own plate or policy number finds them,
 * and publishes a cancelled one again with its shortened cover.
 * Claimed with SKIP LOCKED: several instances publish each policy once (a repeat is harmless:
 * the registry keys publications by policy number).
 */
export async function publishApprovedVehicles(db: Database, registry: VehicleRegistry, insurerName: string, now: Date, batch = 20): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(policies)
      // The condition of the partial index policies_unpublished_vehicles_idx.
      .where(awaitingRegistry(policies))
      .orderBy(policies.statusAt)
      .limit(batch)
      .for("update", { skipLocked: true });
    for (const policy of due) {
      const product = findProduct(policy.productCode);
      const vehicle = product.family.policy.registeredVehicle?.(product.type, storedTerms(policy));
      if (vehicle)
        await registry.publish({
          policyNumber: policy.policyNo!,
          registrationNumber: vehicle.registration,
          chassisNumber: vehicle.chassis,
          typeOfCover: vehicle.cover,
          vehicleMake: vehicle.make,
          vehicleModel: vehicle.model,
          // A cancelled policy's record ends where its cover now ends (the registry keys records by policy number).
          expiryDate: coverDays(policy.coverStart, policy.cancelledFrom ?? policy.coverEnd).lastDay,
          insurer: insurerName,
        });
      await tx.update(policies).set({ registryPublishedAt: now }).where(eq(policies.id, policy.id));
    }
    return due.length;
  });
}
