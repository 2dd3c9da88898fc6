/**
 * Health insurers (HMOs) the service sells through, keyed by the 4-letter insurer code that is
 * the product `type` (hlth-<insurer_code>-1111). Seed data: replace with the insurers' own
 * network feeds when they are onboarded.
 */

export interface Hospital {
  name: string;
  address: string;
  city: string;
  state: string;
}

export interface HealthInsurer {
  /** Insurer code: four lowercase letters, used as the product type. */
  code: string;
  name: string;
  hospitals: readonly Hospital[];
}

export const HEALTH_INSURERS: readonly HealthInsurer[] = [
  {
    code: "axam",
    name: "AXA Mansard Health",
    hospitals: [
      { name: "Reddington Hospital", address: "12 Idowu Martins Street, Victoria Island", city: "Lagos", state: "Lagos" },
      { name: "Lagoon Hospital", address: "17B Bourdillon Road, Ikoyi", city: "Lagos", state: "Lagos" },
      { name: "Nizamiye Hospital", address: "Plot 113 Sector Centre, Life Camp", city: "Abuja", state: "FCT" },
      { name: "Kelina Hospital", address: "8 Nkpogu Road, Trans-Amadi", city: "Port Harcourt", state: "Rivers" },
      { name: "Oak Hospital", address: "15 Ring Road", city: "Ibadan", state: "Oyo" },
    ],
  },
  {
    code: "hygn",
    name: "Hygeia HMO",
    hospitals: [
      { name: "Eko Hospital", address: "31 Mobolaji Bank Anthony Way, Ikeja", city: "Lagos", state: "Lagos" },
      { name: "St. Nicholas Hospital", address: "57 Campbell Street, Lagos Island", city: "Lagos", state: "Lagos" },
      { name: "Garki Hospital", address: "Tafawa Balewa Way, Area 3, Garki", city: "Abuja", state: "FCT" },
      { name: "Memfys Hospital", address: "Onitsha Road, GRA", city: "Enugu", state: "Enugu" },
      { name: "Aminu Kano Specialist Clinic", address: "Zaria Road", city: "Kano", state: "Kano" },
    ],
  },
  {
    code: "rlnc",
    name: "Reliance HMO",
    hospitals: [
      { name: "Evercare Hospital", address: "1 Admiralty Way, Lekki Phase 1", city: "Lagos", state: "Lagos" },
      { name: "First Cardiology Consultants", address: "2 Kingsway Road, Ikoyi", city: "Lagos", state: "Lagos" },
      { name: "Cedarcrest Hospitals", address: "Plot 722 Apo District", city: "Abuja", state: "FCT" },
      { name: "Good Heart Medical Centre", address: "14 Aba Road", city: "Port Harcourt", state: "Rivers" },
      { name: "Bowen Family Clinic", address: "5 Oyo Road", city: "Ogbomoso", state: "Oyo" },
    ],
  },
  {
    code: "avon",
    name: "Avon HMO",
    hospitals: [
      { name: "Paelon Memorial Hospital", address: "1 Jide Oki Street, Victoria Island", city: "Lagos", state: "Lagos" },
      { name: "Vedic Lifecare Hospital", address: "Lekki-Epe Expressway, Lekki", city: "Lagos", state: "Lagos" },
      { name: "Primus International Hospital", address: "Karu Site, Airport Road", city: "Abuja", state: "FCT" },
      { name: "Ashmed Specialist Hospital", address: "Ikot Ekpene Road", city: "Uyo", state: "Akwa Ibom" },
      { name: "Kaduna Medical Centre", address: "Independence Way", city: "Kaduna", state: "Kaduna" },
    ],
  },
];
