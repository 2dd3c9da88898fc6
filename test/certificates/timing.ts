/**
 * Render timings per certificate type (not part of the suite): first call in the process (fonts
 * and native module loading included), then the median and p95 of warm renders, wall clock and
 * CPU time of this process (the latter is steadier on a shared, busy machine).
 *   ./node_modules/.bin/bun test/certificates/timing.ts [runs]
 */
import type { CertificateModel, CertificateType } from "../../src/modules/certificates/model";
import { renderCertificate } from "../../src/modules/certificates/render";

const runs = Number(process.argv[2] ?? 40);
const model: CertificateModel = {
  specimen: false,
  insurerName: "Leadway Assurance Company Limited",
  policyNo: "POL-2026-000123",
  productName: "Marine import, basic (ICC C)",
  productCode: "mrnn-stnd-1111",
  insuredName: "Ọlá Adébáyọ̀ Trading Ltd",
  partnerName: "Acme Brokers",
  coverStart: "22 Nov 2026",
  coverEnd: "21 Nov 2027",
  premium: "₦15,000.00",
  issuedAt: "22 Nov 2026, 14:05 WAT",
  printed: [
    ["Proforma invoice", "PI-2026-0042"],
    ["Vessel", "MV Lagos Star"],
    ["Goods", "Spare parts for generators, 12 crates"],
  ],
  verifyUrl: "https://partners.example.ng/verify/POL-2026-000123",
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

for (const type of ["pdf", "docx", "jpg"] as CertificateType[]) {
  let start = performance.now();
  const first = await renderCertificate(model, type);
  const cold = performance.now() - start;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cpuStart = process.cpuUsage();
    start = performance.now();
    await renderCertificate({ ...model, specimen: i % 2 === 0 }, type);
    times.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  console.log(
    `${type.padEnd(4)} first ${cold.toFixed(1)} ms · warm median ${quantile(times, 0.5).toFixed(1)} ms, p95 ${quantile(times, 0.95).toFixed(1)} ms` +
      ` · CPU median ${quantile(cpu, 0.5).toFixed(1)} ms · ${(first.length / 1024).toFixed(1)} KiB`,
  );
}
