// The national registry's record: the shape the enrichment module reads and the registry service (src/niid) answers, below both.
/** One insured vehicle as the national registry holds it. */
export interface RegistryRecord {
  policyNumber: string;
  registrationNumber: string;
  chassisNumber: string;
  typeOfCover: string;
  vehicleMake: string;
  vehicleModel: string;
  /** YYYY-MM-DD */
  expiryDate: string;
  insurer: string;
}
