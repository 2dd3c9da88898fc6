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

/** A network as rows of name, address, city and state. */
const network = (rows: readonly (readonly [name: string, address: string, city: string, state: string])[]): readonly Hospital[] =>
  rows.map(([name, address, city, state]) => ({ name, address, city, state }));

export const HEALTH_INSURERS: readonly HealthInsurer[] = [
  {
    code: "axam",
    name: "AXA Mansard Health",
    hospitals: network([
      ["Reddington Hospital", "12 Idowu Martins Street, Victoria Island", "Lagos", "Lagos"],
      ["Lagoon Hospital", "17B Bourdillon Road, Ikoyi", "Lagos", "Lagos"],
      ["Nizamiye Hospital", "Plot 113 Sector Centre, Life Camp", "Abuja", "FCT"],
      ["Kelina Hospital", "8 Nkpogu Road, Trans-Amadi", "Port Harcourt", "Rivers"],
      ["Oak Hospital", "15 Ring Road", "Ibadan", "Oyo"],
    ]),
  },
  {
    code: "hygn",
    name: "Hygeia HMO",
    hospitals: network([
      ["Eko Hospital", "31 Mobolaji Bank Anthony Way, Ikeja", "Lagos", "Lagos"],
      ["St. Nicholas Hospital", "57 Campbell Street, Lagos Island", "Lagos", "Lagos"],
      ["Garki Hospital", "Tafawa Balewa Way, Area 3, Garki", "Abuja", "FCT"],
      ["Memfys Hospital", "Onitsha Road, GRA", "Enugu", "Enugu"],
      ["Aminu Kano Specialist Clinic", "Zaria Road", "Kano", "Kano"],
    ]),
  },
  {
    code: "rlnc",
    name: "Reliance HMO",
    hospitals: network([
      ["Evercare Hospital", "1 Admiralty Way, Lekki Phase 1", "Lagos", "Lagos"],
      ["First Cardiology Consultants", "2 Kingsway Road, Ikoyi", "Lagos", "Lagos"],
      ["Cedarcrest Hospitals", "Plot 722 Apo District", "Abuja", "FCT"],
      ["Good Heart Medical Centre", "14 Aba Road", "Port Harcourt", "Rivers"],
      ["Bowen Family Clinic", "5 Oyo Road", "Ogbomoso", "Oyo"],
    ]),
  },
  {
    code: "avon",
    name: "Avon HMO",
    hospitals: network([
      ["Paelon Memorial Hospital", "1 Jide Oki Street, Victoria Island", "Lagos", "Lagos"],
      ["Vedic Lifecare Hospital", "Lekki-Epe Expressway, Lekki", "Lagos", "Lagos"],
      ["Primus International Hospital", "Karu Site, Airport Road", "Abuja", "FCT"],
      ["Ashmed Specialist Hospital", "Ikot Ekpene Road", "Uyo", "Akwa Ibom"],
      ["Kaduna Medical Centre", "Independence Way", "Kaduna", "Kaduna"],
    ]),
  },
];
