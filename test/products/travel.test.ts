import { describe, expect, test } from "bun:test";
import { travel } from "../../src/products/travel";
import { prmm, quoteRefusal } from "./support";

const CODE = "ltix-stnd-1111";
const quote = (seed: Record<string, unknown>) => prmm(CODE, seed);
const refused = (seed: Record<string, unknown>) => quoteRefusal(CODE, { insrncDrtn: "7d", destination: "France", planType: "individual", ...seed });

// Spec 2.4, copied cell by cell: [duration, S-Ind, S-Fam, A1-Ind, A1-Fam, A2-Ind, A2-Fam].
const TRAVEL_TABLE: [string, number, number, number, number, number, number][] = [
  ["7d", 5072, 10144, 5480, 10960, 7524, 15048],
  ["15d", 8516, 17470, 8220, 16440, 9582, 19166],
  ["30d", 14934, 29868, 13004, 26008, 15744, 31488],
  ["62d", 22260, 44520, 19846, 39692, 23268, 46534],
  ["92d", 27332, 54664, 30110, 60220, 30806, 61612],
  ["6m", 37476, 74952, 36272, 72542, 40374, 80748],
  ["12m", 45366, 90732, 45172, 90346, 58176, 116352],
];
// One country per zone column.
const COLUMNS = [
  ["Germany", "individual"],
  ["Germany", "family"],
  ["Kenya", "individual"],
  ["Kenya", "family"],
  ["Japan", "individual"],
  ["Japan", "family"],
] as const;

const cells = TRAVEL_TABLE.flatMap(([duration, ...figures]) =>
  COLUMNS.map(([destination, planType], i) => [duration, destination, planType, figures[i]!] as const),
);

describe("travel premium table (spec 2.4), every cell", () => {
  test("has 42 cells", () => expect(cells.length).toBe(42));

  test.each(cells)("%s %s %s → %d", (insrncDrtn, destination, planType, naira) => {
    expect(quote({ insrncDrtn, destination, planType })).toBe(naira);
  });
});

describe("travel age tiers", () => {
  test.each([
    [0, 1],
    [35, 1],
    [69, 1],
    [70, 2],
    [75, 2],
    [76, 2.5],
    [80, 2.5],
  ])("age %d pays the table rate x%p", (travelerAge, factor) => {
    for (const [insrncDrtn, destination, planType, naira] of cells) expect(quote({ insrncDrtn, destination, planType, travelerAge })).toBe(naira * factor);
  });

  test("age defaults to 35 (table rate) and is kept in the basis", () => {
    const { basis } = travel.quote("stnd", { insrncDrtn: "7d", destination: "Spain", planType: "individual" });
    expect(basis.travelerAge).toBe(35);
  });

  test("figures spelled out: 70-75 x2, 76-80 x2.5", () => {
    expect(quote({ insrncDrtn: "7d", destination: "France", planType: "individual", travelerAge: 72 })).toBe(10144);
    expect(quote({ insrncDrtn: "12m", destination: "USA", planType: "family", travelerAge: 80 })).toBe(290880);
  });

  test("age 81 → age exceeds limit", () => {
    const error = refused({ travelerAge: 81 });
    expect(error.status).toBe(400);
    expect(error.message).toStartWith("age exceeds limit");
    expect(error.field).toBe("seed.travelerAge");
  });

  test.each([-1, 35.5])("travelerAge %d is refused clearly", (travelerAge) => {
    const error = refused({ travelerAge });
    expect(error.field).toBe("seed.travelerAge");
    expect(error.message).toContain("whole number of years");
  });

  test("travelerAge sent as a string names the field", () => {
    const error = refused({ travelerAge: "35" });
    expect(error.field).toBe("seed.travelerAge");
    expect(error.message).toContain("must be a JSON number, not a string");
  });
});

describe("Hajj and Umrah (spec 2.4), every cell", () => {
  const HAJJ: [string, number, number, number][] = [
    ["15d", 1828, 4752, 9504],
    ["25d", 2976, 7736, 15470],
    ["45d", 5440, 14144, 28288],
  ];
  // Both ends of each age band: 0-18, 19-75, 76-80.
  const bands = [
    [0, 18],
    [19, 75],
    [76, 80],
  ] as const;
  const hajjCells = HAJJ.flatMap(([duration, ...figures]) => bands.flatMap(([from, to], i) => [from, to].map((age) => [duration, age, figures[i]!] as const)));

  test.each(hajjCells)("%s age %d → %d", (insrncDrtn, travelerAge, naira) => {
    expect(quote({ insrncDrtn, destination: "Saudi Arabia", planType: "individual", travelerAge, isHajj: true })).toBe(naira);
  });

  test("Hajj basis records zone hajj", () => {
    const { basis, duration } = travel.quote("stnd", { insrncDrtn: "25d", destination: "saudi arabia", planType: "individual", isHajj: true });
    expect(duration).toBe("25d");
    expect(basis).toEqual({ insrncDrtn: "25d", destination: "Saudi Arabia", zone: "hajj", planType: "individual", travelerAge: 35, isHajj: true });
  });

  test("Saudi Arabia without isHajj is Area 1 at the standard table", () => {
    expect(quote({ insrncDrtn: "15d", destination: "Saudi Arabia", planType: "individual" })).toBe(8220);
    expect(quote({ insrncDrtn: "15d", destination: "Saudi Arabia", planType: "individual", isHajj: false })).toBe(8220);
  });

  test("Hajj over 80 → age exceeds limit", () => {
    expect(refused({ insrncDrtn: "15d", destination: "Saudi Arabia", isHajj: true, travelerAge: 81 }).message).toStartWith("age exceeds limit");
  });

  test("Hajj to another country is refused", () => {
    const error = refused({ insrncDrtn: "15d", destination: "Kenya", isHajj: true });
    expect(error.message).toContain("only for destination Saudi Arabia");
    expect(error.field).toBe("seed.destination");
  });

  test("Hajj family plans are refused (the Hajj table has no family rate)", () => {
    const error = refused({ insrncDrtn: "15d", destination: "Saudi Arabia", isHajj: true, planType: "family" });
    expect(error.message).toContain("family plans are not available for Hajj and Umrah");
    expect(error.field).toBe("seed.planType");
  });
});

describe("travel durations per plan", () => {
  test.each(["25d", "45d"])("Hajj-only %s without isHajj → invalid duration for plan", (insrncDrtn) => {
    const error = refused({ insrncDrtn, destination: "Saudi Arabia" });
    expect(error.status).toBe(400);
    expect(error.message).toStartWith("invalid duration for plan");
    expect(error.field).toBe("seed.insrncDrtn");
  });

  test.each(["7d", "30d", "62d", "92d", "6m", "12m"])("standard %s with Hajj → invalid duration for plan", (insrncDrtn) => {
    expect(refused({ insrncDrtn, destination: "Saudi Arabia", isHajj: true }).message).toStartWith("invalid duration for plan");
  });

  test.each(["1y", "1m", "3d"])("%s is no travel duration", (insrncDrtn) => {
    expect(refused({ insrncDrtn }).message).toStartWith("invalid duration for plan");
  });

  test("insrncDrtn is required", () => {
    const error = quoteRefusal(CODE, { destination: "France", planType: "individual" });
    expect(error.field).toBe("seed.insrncDrtn");
    expect(error.message).toContain("is required");
  });
});

describe("travel destination and plan", () => {
  test.each([
    ["  germany  ", "Germany", "schengen"],
    ["FRANCE", "France", "schengen"],
    ["Czechia", "Czech Republic", "schengen"],
    ["UK", "United Kingdom", "area1"],
    ["U.K.", "United Kingdom", "area1"],
    ["UAE", "United Arab Emirates", "area1"],
    ["United States of America", "United States", "area2"],
    ["usa", "United States", "area2"],
    ["south  africa", "South Africa", "area1"],
  ])("%p → %s (%s)", (destination, country, zone) => {
    const { basis } = travel.quote("stnd", { insrncDrtn: "7d", destination, planType: "individual", travelerAge: 40 });
    expect(basis).toEqual({ insrncDrtn: "7d", destination: country, zone, planType: "individual", travelerAge: 40, isHajj: false });
  });

  test.each([undefined, "", "   "])("destination %p → destination is not provided", (destination) => {
    const error = refused({ destination });
    expect(error.status).toBe(400);
    expect(error.message).toStartWith("destination is not provided");
    expect(error.field).toBe("seed.destination");
  });

  test("unknown country → destination country not recognised", () => {
    const error = refused({ destination: "Atlantis" });
    expect(error.message).toStartWith("destination country not recognised");
    expect(error.message).toContain("Atlantis");
  });

  test.each(["Nigeria", " nigeria "])("%p → Nigeria is the country of origin", (destination) => {
    const error = refused({ destination });
    expect(error.message).toStartWith("Nigeria is the country of origin");
    expect(error.field).toBe("seed.destination");
  });

  test("planType is required and must be individual or family", () => {
    expect(refused({ planType: undefined }).field).toBe("seed.planType");
    expect(refused({ planType: "couple" }).message).toContain('must be one of "individual", "family"');
  });

  test("isHajj must be a boolean", () => {
    expect(refused({ isHajj: "true" }).field).toBe("seed.isHajj");
  });
});

describe("travel consumer requirements", () => {
  test("name, phone, e-mail, gender, dob and address", () => {
    expect(travel.consumerRequirements("stnd", "h")).toEqual(["name.first", "phoneNo", "eMail", "gender", "dob.date", "addrss.addrss"]);
  });
});
