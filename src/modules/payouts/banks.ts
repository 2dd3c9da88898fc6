/**
 * The banks a claim can be paid to (docs/payouts.md, "Banks"): Nigerian commercial banks, the
 * microfinance banks, payment service banks and fintechs partners' customers hold accounts with, by
 * the code Paystack's bank list (GET /bank?country=nigeria) gives them — the code a transfer
 * recipient of type `nuban` is created with. Most are the CBN's three-digit bank codes; the newer
 * institutions have longer ones (Kuda 50211, OPay 999992), and one holds a letter (ALAT 035A).
 * Plus the sandbox's own bank, which only the sandbox provider knows.
 */

/** The sandbox provider's bank: not a code in Paystack's list of Nigerian banks, so it never stands for a real one. */
export const SANDBOX_BANK_CODE = "001";

const BANKS: readonly { code: string; name: string }[] = [
  // Commercial and non-interest banks.
  { code: "044", name: "Access Bank" },
  { code: "063", name: "Access Bank (Diamond)" },
  { code: "023", name: "Citibank Nigeria" },
  { code: "050", name: "Ecobank Nigeria" },
  { code: "070", name: "Fidelity Bank" },
  { code: "011", name: "First Bank of Nigeria" },
  { code: "214", name: "First City Monument Bank (FCMB)" },
  { code: "00103", name: "Globus Bank" },
  { code: "058", name: "Guaranty Trust Bank (GTBank)" },
  { code: "301", name: "Jaiz Bank" },
  { code: "082", name: "Keystone Bank" },
  { code: "303", name: "Lotus Bank" },
  { code: "00107", name: "Optimus Bank" },
  { code: "104", name: "Parallex Bank" },
  { code: "076", name: "Polaris Bank" },
  { code: "105", name: "PremiumTrust Bank" },
  { code: "101", name: "Providus Bank" },
  { code: "221", name: "Stanbic IBTC Bank" },
  { code: "068", name: "Standard Chartered Bank" },
  { code: "232", name: "Sterling Bank" },
  { code: "100", name: "SunTrust Bank" },
  { code: "302", name: "TAJ Bank" },
  { code: "102", name: "Titan Trust Bank" },
  { code: "032", name: "Union Bank of Nigeria" },
  { code: "033", name: "United Bank for Africa (UBA)" },
  { code: "215", name: "Unity Bank" },
  { code: "035", name: "Wema Bank" },
  { code: "035A", name: "ALAT by Wema" },
  { code: "057", name: "Zenith Bank" },
  // Microfinance banks, payment service banks and fintechs.
  { code: "50211", name: "Kuda Bank" },
  { code: "50515", name: "Moniepoint Microfinance Bank" },
  { code: "999992", name: "OPay" },
  { code: "999991", name: "PalmPay" },
  { code: "100002", name: "Paga" },
  { code: "51318", name: "FairMoney Microfinance Bank" },
  { code: "565", name: "Carbon" },
  { code: "125", name: "Rubies Microfinance Bank" },
  { code: "100022", name: "GoMoney" },
  { code: "120001", name: "9mobile 9Payment Service Bank" },
  { code: "120003", name: "MTN MoMo Payment Service Bank" },
  { code: "120004", name: "Airtel Smartcash Payment Service Bank" },
  // The sandbox's.
  { code: SANDBOX_BANK_CODE, name: "Sandbox Bank" },
];

const byCode = new Map(BANKS.map((bank) => [bank.code, bank.name]));

/** Whether this is the code of a bank in the list. */
export const isBankCode = (code: string) => byCode.has(code);

/** The bank's name, or null for a code that is no bank's. */
export const bankName = (code: string) => byCode.get(code) ?? null;

/** Every bank, by name (the portal's select of the payee's bank). */
export const bankChoices: readonly { code: string; name: string }[] = [...BANKS].sort((a, b) => a.name.localeCompare(b.name, "en"));
