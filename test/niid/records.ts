/** Registry records for the suites that publish vehicles to the verification service. */
import type { PublishedPolicy, VehicleRegistry } from "../../src/modules/enrichment/registry";

const letters = () => Array.from({ length: 3 }, () => "ABCDEFGHJKLMNPRSTUVWXYZ"[Math.floor(Math.random() * 23)]).join("");

/** A plate nobody else in this run uses, in the current Nigerian format (ABC123DE). */
export const newPlate = () => `${letters()}${String(Math.floor(Math.random() * 900) + 100)}${letters().slice(0, 2)}`;

/** Publish a Toyota Corolla on a fresh plate, insured by `insurer` (policy numbers start with its `prefix`). */
export async function publishVehicle(
  registry: VehicleRegistry,
  insurer: { name: string; prefix: string },
  overrides: Partial<PublishedPolicy> = {},
): Promise<PublishedPolicy> {
  const record: PublishedPolicy = {
    policyNumber: `${insurer.prefix}/MTR/2026/${Math.floor(Math.random() * 1e6)}`,
    registrationNumber: newPlate(),
    chassisNumber: "JTDBR32E530012345",
    typeOfCover: "Third Party",
    vehicleMake: "Toyota",
    vehicleModel: "Corolla",
    expiryDate: new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10),
    insurer: insurer.name,
    ...overrides,
  };
  await registry.publish(record);
  return record;
}
