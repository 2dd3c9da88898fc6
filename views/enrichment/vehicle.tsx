import { naira, sentence } from "../format";
import { Badge, type FormProblem, type FormValues, HxForm, Input, ProblemSummary } from "../portal/ui";

/** The registry check's answer as the page shows it (the JSON surface's `status`, `details`, `from_cache`, `message`). */
interface RegistryResult {
  status: "found" | "not_found";
  details: Record<string, string>;
  message: string;
  fromCache: boolean;
  /** What this check added to the month's usage statement, kobo. */
  billedKobo: number;
  mode: "test" | "live";
}

export interface RegistryCheckProps {
  values: FormValues;
  problem?: FormProblem;
  result?: RegistryResult;
  csrf: string;
}

export interface VinProps {
  values: FormValues;
  problem?: FormProblem;
  /** The decoded fields (only those the catalogue knows; possibly none). */
  result?: { vin: string; fields: Record<string, string> };
  csrf: string;
}

const DETAIL_LABELS: Record<string, string> = {
  policy_number: "Policy number",
  registration_number: "Registration number",
  chassis_number: "Chassis number",
  type_of_cover: "Type of cover",
  vehicle_make: "Make",
  vehicle_model: "Model",
  expiry_date: "Expiry date",
  licence_status: "Status",
  insurer: "Insurer",
};

const VIN_LABELS: Record<string, string> = {
  make: "Make",
  model: "Model",
  year: "Model year",
  bodyClass: "Body",
  engineDisplacement: "Engine displacement",
  fuelType: "Fuel",
  manufacturer: "Manufacturer",
  plantCountry: "Built in",
  vehicleType: "Vehicle type",
};

/** A field name a person can read: the known label, else "some_field" → "Some field". */
const labelOf = (labels: Record<string, string>, key: string) => labels[key] ?? `${key.charAt(0).toUpperCase()}${key.slice(1).replace(/_/g, " ")}`;

function Details(props: { labels: Record<string, string>; fields: Record<string, string> }) {
  return (
    <dl>
      {Object.entries(props.fields).map(([key, value]) => (
        <>
          <dt safe>{labelOf(props.labels, key)}</dt>
          <dd safe>{value}</dd>
        </>
      ))}
    </dl>
  );
}

function billingLine(result: RegistryResult): string {
  if (result.fromCache) return "From the five-minute cache: this repeat was not billed.";
  if (result.mode === "test") return "Test mode: not billed.";
  return `Billed ${naira(result.billedKobo)} to this month's usage statement.`;
}

function RegistryAnswerView(props: { result: RegistryResult }) {
  const r = props.result;
  return (
    <div class="card" role="status" aria-live="polite" id="registry-result">
      <h3>
        {r.status === "found" ? <Badge tone="ok" text="Found" /> : <Badge tone="wait" text="Not found" />}
        {r.fromCache ? (
          <>
            {" "}
            <Badge tone="info" text="from cache" />
          </>
        ) : (
          ""
        )}
      </h3>
      {r.status === "found" ? <Details labels={DETAIL_LABELS} fields={r.details} /> : <p safe>{sentence(r.message)}</p>}
      <p class="muted" safe>
        {billingLine(r)}
      </p>
    </div>
  );
}

/** The plate or policy-number check against the national registry (spec 4.3 `enrch niid_vehicle`). */
export function RegistryCheck(props: RegistryCheckProps) {
  return (
    <section id="registry-check" aria-labelledby="registry-title">
      <h2 id="registry-title">Insurance check by plate or policy number</h2>
      <p class="muted">
        Asks the national insurance database whether a vehicle is insured. A check that reaches the registry costs ₦150.00 in live mode (on the monthly usage
        statement); the same check again within five minutes comes from the cache and is free, and test mode is never billed.
      </p>
      <ProblemSummary problem={props.problem} inputs={["search_type", "value"]} />
      <HxForm action="/portal/vehicle/check" target="#registry-check" csrf={props.csrf}>
        <Input
          name="search_type"
          label="Search by"
          kind="select"
          required
          value={props.values.search_type ?? "registration"}
          options={[
            { value: "registration", label: "Registration number (plate)" },
            { value: "policy", label: "Policy number" },
          ]}
          problem={props.problem}
        />
        <Input
          name="value"
          label="Plate or policy number"
          required
          value={props.values.value}
          problem={props.problem}
          hint="For example ABC 123 DE: spaces, hyphens and letter case do not matter."
        />
        <p class="hint" id="registry-wait">
          The first lookup of a plate takes a while (usually 12–17 seconds) while the registry answers. Please keep this page open.
        </p>
        <button type="submit">Check</button>
      </HxForm>
      {props.result ? <RegistryAnswerView result={props.result} /> : ""}
    </section>
  );
}

/** The offline VIN decoder (spec 4.3 `enrch vin_vehicle`). */
export function VinDecode(props: VinProps) {
  const r = props.result;
  return (
    <section id="vin-decode" aria-labelledby="vin-title">
      <h2 id="vin-title">VIN decode</h2>
      <p class="muted">
        Decodes a 17-character vehicle identification number from NHTSA's vPIC catalogue. Free; vehicles not sold in North America may decode to little or
        nothing.
      </p>
      <ProblemSummary problem={props.problem} inputs={["vin"]} />
      <HxForm action="/portal/vehicle/vin" target="#vin-decode" csrf={props.csrf}>
        <Input
          name="vin"
          label="VIN"
          required
          value={props.values.vin}
          problem={props.problem}
          hint="17 letters and digits (never I, O or Q)."
          autocomplete="off"
        />
        <button type="submit">Decode</button>
      </HxForm>
      {r ? (
        <div class="card" role="status" aria-live="polite" id="vin-result">
          <h3 safe>{r.vin}</h3>
          {Object.keys(r.fields).length ? (
            <Details labels={VIN_LABELS} fields={r.fields} />
          ) : (
            <p>The catalogue does not know this VIN: it covers vehicles made for North America, so many vehicles sold in Nigeria decode to nothing.</p>
          )}
        </div>
      ) : (
        ""
      )}
    </section>
  );
}

export function VehiclePage(props: { mode: "test" | "live"; check: RegistryCheckProps; vin: VinProps }) {
  return (
    <section id="vehicle">
      <h1>Vehicle checks</h1>
      <p class="muted">
        {props.mode === "live" ? "Checks run in live mode (the account's mode)." : "The account is in test mode: checks are not billed."}{" "}
        <a href="/portal/wallet#usage">See this month's usage statement</a>.
      </p>
      <RegistryCheck {...props.check} />
      <VinDecode {...props.vin} />
    </section>
  );
}

/** What a partner without enrichment sees: why, and how to get it. */
export function VehicleNotActivated() {
  return (
    <section>
      <h1>Vehicle checks</h1>
      <p class="problem" role="alert">
        Vehicle checks are not activated on this account.
      </p>
      <p>
        The plate check against the national insurance database and the VIN decoder are available once the operator activates enrichment for your account (the
        JSON commands <code>enrch niid_vehicle</code> and <code>enrch vin_vehicle</code> answer 403 until then). Ask your account manager to activate it;
        registry checks are billed at ₦150.00 each in live mode.
      </p>
    </section>
  );
}
