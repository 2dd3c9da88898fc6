import type { RegistryRecord } from "../core/niid-record";
import { watDate } from "./dates";

/**
 * The sandbox registry's vehicles: current-format plates (LGA code, 3 digits, 2 letters), cars
 * common on Nigerian roads, chassis numbers that decode to the same make and model, and expiry
 * dates counted from today so the data never goes stale. A few policies have expired.
 */

const THIRD_PARTY = "Third Party";
const COMPREHENSIVE = "Comprehensive";

const AIICO = "AIICO Insurance Plc";
const LWY = "Leadway Assurance Company Ltd";
const AXAM = "AXA Mansard Insurance Plc";
const CIP = "Cornerstone Insurance Plc";
const NEM = "NEM Insurance Plc";
const CAI = "Custodian and Allied Insurance Ltd";
const STI = "Sovereign Trust Insurance Plc";
const MBA = "Mutual Benefits Assurance Plc";
const CHI = "Consolidated Hallmark Insurance Plc";

type Seed = [registration: string, policy: string, chassis: string, make: string, model: string, cover: string, insurer: string, expiresInDays: number];

const SEEDS: Seed[] = [
  ["ABC123DE", "AIICO/MTR/2025/920419", "2T1BURHEXFC674852", "Toyota", "Corolla", THIRD_PARTY, AIICO, 214],
  ["LSD482KJ", "LWY/MTR/2025/986497", "4T1BF1FK7CU902790", "Toyota", "Camry", COMPREHENSIVE, LWY, 161],
  ["KJA901AB", "AXAM/MTR/2025/408639", "1HGCR2F37DA174472", "Honda", "Accord", THIRD_PARTY, AXAM, 97],
  ["ABJ334XY", "CIP/MTR/2025/626077", "2T2BK1BA8AC116970", "Lexus", "RX 350", COMPREHENSIVE, CIP, 288],
  ["EKY215AA", "AIICO/MTR/2025/263259", "5TDZKRFH9ES008492", "Toyota", "Highlander", COMPREHENSIVE, AIICO, 330],
  ["LND774GT", "LWY/MTR/2025/435257", "WDDGF8BB5CR852750", "Mercedes-Benz", "C-Class", COMPREHENSIVE, LWY, 45],
  ["AAA219KS", "NEM/MTR/2025/052279", "5NPDH4AE8DH904912", "Hyundai", "Elantra", THIRD_PARTY, NEM, 120],
  ["FKJ560BD", "CAI/MTR/2025/166037", "KNADN4A32D6102130", "Kia", "Rio", THIRD_PARTY, CAI, 73],
  ["SMK803LA", "STI/MTR/2025/503699", "VF38BRFN431951732", "Peugeot", "406", THIRD_PARTY, STI, 12],
  ["MUS127QZ", "MBA/MTR/2025/810417", "MNTBAAN13Z0897110", "Nissan", "Almera", THIRD_PARTY, MBA, 256],
  ["APP648HR", "AXAM/MTR/2025/705519", "5J6RM4H5XCL796952", "Honda", "CR-V", COMPREHENSIVE, AXAM, 188],
  ["KTU392MN", "AIICO/MTR/2025/400397", "JTHBK1EG9A2109690", "Lexus", "ES 350", COMPREHENSIVE, AIICO, 59],
  ["AGL705EE", "CIP/MTR/2025/305739", "WDCGG8HBXAF848572", "Mercedes-Benz", "GLK-Class", COMPREHENSIVE, CIP, 143],
  ["BDG118TW", "NEM/MTR/2025/807977", "5YFBURHE3EP251870", "Toyota", "Corolla", THIRD_PARTY, NEM, 301],
  ["EPE951CX", "CHI/MTR/2025/712359", "4T1BE46K67U474592", "Toyota", "Camry", THIRD_PARTY, CHI, 27],
  ["FST276RG", "LWY/MTR/2025/545157", "5TDKK3DC7BS275650", "Toyota", "Sienna", THIRD_PARTY, LWY, 205],
  ["GGE430JP", "AXAM/MTR/2025/293379", "4T3ZK3BB3AU203012", "Toyota", "Venza", COMPREHENSIVE, AXAM, 352],
  ["JJJ889SA", "CAI/MTR/2025/563937", "1HGCP2F34AA373030", "Honda", "Accord", THIRD_PARTY, CAI, 84],
  ["LSR162FV", "AIICO/MTR/2025/576799", "2T3ZFREV0EW921832", "Toyota", "RAV4", COMPREHENSIVE, AIICO, 177],
  ["AKD547UB", "LWY/MTR/2025/056317", "JTEBU3FJ30K776010", "Toyota", "Land Cruiser Prado", COMPREHENSIVE, LWY, 239],
  ["BWR613KC", "STI/MTR/2025/450619", "5FNYF4H57CB079052", "Honda", "Pilot", THIRD_PARTY, STI, 66],
  ["GWA208LE", "MBA/MTR/2025/254297", "19XFB2F5XCE556590", "Honda", "Civic", THIRD_PARTY, MBA, 110],
  ["KUJ374DA", "CIP/MTR/2025/362839", "2T2GA31UX4C882672", "Lexus", "RX 330", THIRD_PARTY, CIP, 18],
  ["RBC925NM", "AXAM/MTR/2025/229877", "JTJBM7FX2A5426770", "Lexus", "GX 460", COMPREHENSIVE, AXAM, 272],
  ["KMC441AS", "AIICO/MTR/2025/521459", "WDDHF8HBXBA500692", "Mercedes-Benz", "E-Class", COMPREHENSIVE, AIICO, 133],
  ["PHC736RV", "CHI/MTR/2025/695057", "5NPEB4AC8BH538550", "Hyundai", "Sonata", THIRD_PARTY, CHI, 91],
  ["IBD052YT", "NEM/MTR/2025/094479", "5XYKT3A63DG261112", "Kia", "Sorento", COMPREHENSIVE, NEM, 315],
  ["AKR380ED", "LWY/MTR/2025/801837", "5N1AR2MM4EC283930", "Nissan", "Pathfinder", COMPREHENSIVE, LWY, 49],
  ["ENU619GR", "CAI/MTR/2025/409899", "1FM5K7B84DG851932", "Ford", "Explorer", COMPREHENSIVE, CAI, 226],
  ["BEN287KE", "STI/MTR/2025/942217", "2HNYD28478H094910", "Acura", "MDX", THIRD_PARTY, STI, 154],
  ["ABA840CK", "MBA/MTR/2025/155719", "5TDJKRFH8GS521152", "Toyota", "Highlander", COMPREHENSIVE, MBA, 362],
  ["UYO315AK", "AXAM/MTR/2025/548197", "5XYZU3LB3DG243490", "Hyundai", "Santa Fe", COMPREHENSIVE, AXAM, 101],
  ["WRR572DT", "CHI/MTR/2025/579939", "2T1BURHE3GC276772", "Toyota", "Corolla", THIRD_PARTY, CHI, 39],
  // Expires today: still active until the end of the day in Nigeria.
  ["KAD508FB", "AIICO/MTR/2025/891777", "4T1BF1FK4DU641670", "Toyota", "Camry", THIRD_PARTY, AIICO, 0],
  ["JOS176PL", "NEM/MTR/2025/690559", "MNTBAAN1XZ0086792", "Nissan", "Almera", THIRD_PARTY, NEM, 197],
  ["MKD829BN", "CIP/MTR/2025/884957", "5J6RM4H5XDL641450", "Honda", "CR-V", COMPREHENSIVE, CIP, 245],
  // Expired policies.
  ["ABK461EN", "LWY/MTR/2024/455579", "2T1BURHE3EC079212", "Toyota", "Corolla", THIRD_PARTY, LWY, -3],
  ["YOL903AD", "MBA/MTR/2024/879737", "VF38BRFN941834830", "Peugeot", "406", THIRD_PARTY, MBA, -41],
  ["OSG233LX", "AXAM/MTR/2024/002999", "2T2BK1BA2BC742032", "Lexus", "RX 350", COMPREHENSIVE, AXAM, -128],
  ["ILR694KW", "STI/MTR/2024/468117", "KNADN4A30C6853810", "Kia", "Rio", THIRD_PARTY, STI, -365],
];

/** The seeded vehicles, with expiry dates relative to `today` (Nigerian calendar). */
export function sandboxRecords(today: Date = new Date()): RegistryRecord[] {
  return SEEDS.map(([registrationNumber, policyNumber, chassisNumber, vehicleMake, vehicleModel, typeOfCover, insurer, days]) => ({
    policyNumber,
    registrationNumber,
    chassisNumber,
    typeOfCover,
    vehicleMake,
    vehicleModel,
    expiryDate: watDate(today, days),
    insurer,
  }));
}
