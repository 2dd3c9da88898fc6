// Below both the registry and its sandbox data, so neither imports the other for the shape.
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
