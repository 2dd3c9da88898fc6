import { describe, expect, test } from "bun:test";
import { certificateFaces } from "../../src/modules/certificates/fonts";
import { withJpegComment } from "../../src/modules/certificates/jpg";
import { CERTIFICATE_MIME, type CertificateModel, type CertificateType } from "../../src/modules/certificates/model";
import { renderCertificate } from "../../src/modules/certificates/render";
import { cleanModel, cleanText, LIMITS, truncate, wrapText } from "../../src/modules/certificates/text";
import { docxContents, jpegContents, pdfQr, pdfText, pngQr, readQr, wordText } from "./parse";

const model: CertificateModel = {
  specimen: false,
  insurerName: "Leadway Assurance Company Limited",
  policyNo: "POL-2026-000123",
  productName: "Marine import, basic (ICC C)",
  productCode: "mrnn-stnd-1111",
  insuredName: "Ọlá Adébáyọ̀ Trading Ltd",
  partnerName: "Acme Office Brokers", // "ffi": no ligature may hide letters from text extraction
  coverStart: "22 Nov 2026",
  coverEnd: "21 Nov 2027",
  premium: "₦15,000.00",
  issuedAt: "22 Nov 2026, 14:05 WAT",
  printed: [
    ["Proforma invoice", "PI-2026-0042"],
    ["Vessel", "MV Lagos Star"],
  ],
  verifyUrl: "https://partners.example.ng/verify/POL-2026-000123",
};
const specimen: CertificateModel = { ...model, specimen: true };

/** Everything a certificate must show, as the readers see it. */
const facts = (m: CertificateModel) => [
  m.insurerName,
  m.policyNo,
  m.insuredName.normalize("NFC"),
  m.productName,
  m.productCode,
  m.partnerName,
  m.coverStart,
  m.coverEnd,
  m.premium,
  m.issuedAt,
  ...m.printed.flat(),
  m.verifyUrl,
];

const expectAll = (text: string, wanted: readonly string[]) => {
  for (const w of wanted) expect(text).toContain(w);
};

describe("CERTIFICATE_MIME", () => {
  test("one media type per certificate type", () => {
    expect(CERTIFICATE_MIME).toEqual({
      pdf: "application/pdf",
      docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      jpg: "image/jpeg",
    });
  });
});

describe("PDF", () => {
  test("pdf.js reads every fact, the link and the QR code; no specimen mark on a live certificate", async () => {
    const bytes = await renderCertificate(model, "pdf");
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
    const { pages, text, links } = await pdfText(bytes);
    expect(pages).toBe(1);
    expectAll(text, facts(model));
    expect(text).not.toContain("SPECIMEN");
    expect(links).toContain(model.verifyUrl);
    expect(await pdfQr(bytes)).toBe(model.verifyUrl);
    expect(bytes.length).toBeLessThan(60_000); // font subsets, not whole fonts
  });

  test("a specimen says SPECIMEN — TEST MODE and still verifies", async () => {
    const bytes = await renderCertificate(specimen, "pdf");
    const { text } = await pdfText(bytes);
    expect(text).toContain("SPECIMEN — TEST MODE");
    expect(text).toContain("not a certificate of insurance");
    expectAll(text, facts(specimen));
    // The watermark crosses the page; the QR code must still read through it.
    expect(await pdfQr(bytes)).toBe(specimen.verifyUrl);
  });
});

describe("DOCX", () => {
  test("mammoth reads every fact; the XML is well-formed; the QR image decodes", async () => {
    const bytes = await renderCertificate(model, "docx");
    expect(Array.from(bytes.subarray(0, 2))).toEqual([0x50, 0x4b]); // a zip
    const docx = await docxContents(bytes);
    expect(docx.invalid).toEqual([]);
    expect(docx.xml.has("word/document.xml")).toBe(true);
    expectAll(docx.text, facts(model));
    const allText = Array.from(docx.xml.values(), wordText).join("\n");
    expect(allText).not.toContain("SPECIMEN");
    expect(docx.xml.get("word/_rels/document.xml.rels")).toContain(`Target="${model.verifyUrl}"`);
    expect(docx.media).toHaveLength(1);
    expect(await pngQr(docx.media[0]!)).toBe(model.verifyUrl);
  });

  test("a specimen says so in the body and in the header and footer of every page", async () => {
    const docx = await docxContents(await renderCertificate(specimen, "docx"));
    expect(docx.text).toContain("SPECIMEN — TEST MODE");
    expectAll(docx.text, facts(specimen));
    const header = [...docx.xml].filter(([name]) => /^word\/header\d*\.xml$/.test(name));
    const footer = [...docx.xml].filter(([name]) => /^word\/footer\d*\.xml$/.test(name));
    expect(header.length).toBeGreaterThan(0);
    expect(footer.length).toBeGreaterThan(0);
    for (const [, xml] of [...header, ...footer]) expect(wordText(xml)).toContain("SPECIMEN — TEST MODE");
  });
});

describe("JPG", () => {
  test("jpeg-js decodes an A4-at-150-dpi image; its comment holds the facts; jsQR reads the URL", async () => {
    const bytes = await renderCertificate(model, "jpg");
    const jpg = jpegContents(bytes);
    expect(jpg.width).toBe(1240);
    expect(jpg.height).toBe(1754);
    expect(jpg.comments).toHaveLength(1);
    expectAll(jpg.comments[0]!, facts(model));
    expect(jpg.comments[0]).not.toContain("SPECIMEN");
    expect(readQr(new Uint8ClampedArray(jpg.rgba.buffer, jpg.rgba.byteOffset, jpg.rgba.byteLength), jpg.width, jpg.height)).toBe(model.verifyUrl);
  });

  test("a specimen's comment and pixels say so; the QR code still reads", async () => {
    const bytes = await renderCertificate(specimen, "jpg");
    const jpg = jpegContents(bytes);
    expect(jpg.comments[0]).toStartWith("SPECIMEN — TEST MODE");
    expect(readQr(new Uint8ClampedArray(jpg.rgba.buffer, jpg.rgba.byteOffset, jpg.rgba.byteLength), jpg.width, jpg.height)).toBe(specimen.verifyUrl);
    // The banner: a band of the specimen red near the top, absent from the live certificate.
    const live = jpegContents(await renderCertificate(model, "jpg"));
    const reddish = (img: { rgba: Uint8Array; width: number }, y: number) => {
      const i = (y * img.width + img.width / 2) * 4;
      return (img.rgba[i] ?? 0) > 150 && (img.rgba[i + 1] ?? 255) < 60 && (img.rgba[i + 2] ?? 255) < 80;
    };
    expect(reddish(jpg, 95)).toBe(true);
    expect(reddish(live, 95)).toBe(false);
  });

  test("the comment segment is inserted after JFIF and is capped at a segment's size", () => {
    const jfif = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46, 0xff, 0xd9]);
    const out = withJpegComment(jfif, "é".repeat(40_000)); // 80,000 bytes of UTF-8
    expect(Array.from(out.subarray(0, 8))).toEqual([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46]);
    expect(Array.from(out.subarray(8, 10))).toEqual([0xff, 0xfe]);
    const length = ((out[10] ?? 0) << 8) | (out[11] ?? 0);
    expect(length).toBeLessThanOrEqual(0xffff);
    expect(new TextDecoder("utf-8", { fatal: true }).decode(out.subarray(12, 10 + length))).toMatch(/^é+$/);
    expect(Array.from(out.subarray(-2))).toEqual([0xff, 0xd9]);
  });
});

describe("hostile text", () => {
  const hostile: CertificateModel = {
    specimen: true,
    insurerName: `Insurer </w:t></w:r><w:r><w:t>injected & "quoted" 'single' <script>alert(1)</script>`,
    policyNo: "POL-<&>-\u0000\u0007\u001b[31m-\uFFFF-\uD800-end",
    productName: "Marine import, basic (ICC C) \u202Eevil\u202C ]]> <![CDATA[x]]>",
    productCode: "mrnn-stnd-1111",
    insuredName: "Ọlá Adébáyọ̀ 👨‍👩‍👧 😀 العربية 中文 Ωμέγα Привет",
    partnerName: "A".repeat(5_000),
    coverStart: "",
    coverEnd: "22 Nov 2027\r\n\tnext line",
    premium: "₦15,000.00",
    issuedAt: "22 Nov 2026, 14:05 WAT",
    printed: [
      ["Goods", "word ".repeat(2_000)],
      ["Unbroken", "x".repeat(10_000)],
      ["", ""],
      ["%PDF-1.7 endobj ) ( \\", "trailer << /Root >> startxref"],
    ],
    verifyUrl: `https://partners.example.ng/verify/POL-${encodeURIComponent("<&>\"'")}?a=1&b=2`,
  };
  const cleaned = cleanModel(hostile);

  test.each(["pdf", "docx", "jpg"] as CertificateType[])("%s renders and parses", async (type) => {
    const bytes = await renderCertificate(hostile, type);
    const wanted = [cleaned.insurerName, cleaned.productName, "₦15,000.00", "Ọlá Adébáyọ̀", "SPECIMEN — TEST MODE", cleaned.verifyUrl];
    if (type === "pdf") {
      const { text: raw, pages } = await pdfText(bytes);
      const text = raw.replace(/\s+/g, " "); // wrapped lines come back as separate lines
      expect(pages).toBeLessThanOrEqual(3);
      expectAll(text, [...wanted.slice(0, 5), "Привет", "Ωμέγα", "trailer << /Root >> startxref"]);
      expect(text).toContain("…"); // over-long values were cut, visibly
      expect(await pdfQr(bytes)).toBe(cleaned.verifyUrl);
    } else if (type === "docx") {
      const docx = await docxContents(bytes);
      expect(docx.invalid).toEqual([]);
      expectAll(docx.text, [...wanted, "👨‍👩‍👧 😀 العربية 中文", cleaned.policyNo]);
      expect(docx.text).not.toContain("\u202E");
      expect(await pngQr(docx.media[0]!)).toBe(cleaned.verifyUrl);
    } else {
      const jpg = jpegContents(bytes);
      expect(jpg.width).toBe(1240);
      expect(jpg.height).toBeGreaterThanOrEqual(1754);
      expect(jpg.height).toBeLessThan(8_000);
      expectAll(jpg.comments[0]!, [...wanted, cleaned.policyNo]);
      expect(readQr(new Uint8ClampedArray(jpg.rgba.buffer, jpg.rgba.byteOffset, jpg.rgba.byteLength), jpg.width, jpg.height)).toBe(cleaned.verifyUrl);
    }
  });

  test.each(["pdf", "docx", "jpg"] as CertificateType[])("%s with no printed lines and empty fields", async (type) => {
    const bare: CertificateModel = {
      ...model,
      printed: [],
      insuredName: "",
      partnerName: "   ",
      verifyUrl: "",
    };
    const bytes = await renderCertificate(bare, type);
    if (type === "pdf") {
      const { text } = await pdfText(bytes);
      expect(text).toContain(model.policyNo);
      expect(text).not.toContain("Particulars");
    } else if (type === "docx") {
      const docx = await docxContents(bytes);
      expect(docx.invalid).toEqual([]);
      expect(docx.text).toContain(model.policyNo);
      expect(docx.text).not.toContain("Particulars");
    } else {
      expect(jpegContents(bytes).comments[0]).toContain(model.policyNo);
    }
  });

  test.each(["pdf", "docx", "jpg"] as CertificateType[])("%s survives many printed lines (capped, and says so)", async (type) => {
    const many: CertificateModel = { ...model, printed: Array.from({ length: 500 }, (_, i) => [`Line ${i}`, `Value ${i}`] as const) };
    const bytes = await renderCertificate(many, type);
    const note = `${500 - LIMITS.printedRows} more lines not shown`;
    if (type === "pdf") {
      const { text, pages } = await pdfText(bytes);
      expect(pages).toBeGreaterThan(1);
      expect(text).toContain(note);
      expect(text).toContain("page 2 of");
    } else if (type === "docx") {
      expect((await docxContents(bytes)).text).toContain(note);
    } else {
      expect(jpegContents(bytes).comments[0]).toContain(note);
    }
  });
});

describe("concurrency", () => {
  test("simultaneous renders of every type all complete and stay distinct", async () => {
    const models = Array.from({ length: 4 }, (_, i) => ({ ...model, policyNo: `POL-2026-00${i}` }));
    const jobs = models.flatMap((m) => (["pdf", "docx", "jpg"] as const).map(async (type) => ({ m, type, bytes: await renderCertificate(m, type) })));
    for (const { m, type, bytes } of await Promise.all(jobs)) {
      if (type === "pdf") expect((await pdfText(bytes)).text).toContain(m.policyNo);
      else if (type === "docx") expect((await docxContents(bytes)).text).toContain(m.policyNo);
      else expect(jpegContents(bytes).comments[0]).toContain(m.policyNo);
    }
  });
});

describe("text hygiene", () => {
  test("controls become spaces, direction overrides and lone surrogates cannot survive", () => {
    expect(cleanText("a\u0000b\r\nc\u202Ed\uD800e\u2028f")).toBe("a b cd\uFFFDe f");
    expect(cleanText(undefined)).toBe("");
    expect(cleanText("  padded   out  ")).toBe("padded out");
    // NFC: a decomposed é prints as the composed letter.
    expect(cleanText("e\u0301")).toBe("é");
  });

  test("truncation never splits a letter from its accents", () => {
    const yoruba = "ọ̀".repeat(10); // two code points each, no precomposed form
    const cut = truncate(yoruba, 7);
    expect(cut).toBe(`${"ọ̀".repeat(3)}…`);
  });

  test("wrapping keeps every line within the width and ends an overflow with an ellipsis", () => {
    const { regular } = certificateFaces();
    const measure = (s: string) => regular.width(s, 10);
    const lines = wrapText(`${"word ".repeat(100)}${"x".repeat(300)}`, 200, measure, 5);
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(measure(line)).toBeLessThanOrEqual(200);
    expect(lines.at(-1)).toEndWith("…");
    expect(wrapText("", 200, measure, 3)).toEqual([""]);
  });

  test("characters the font lacks print as ?, marks it lacks are dropped", () => {
    const { regular } = certificateFaces();
    expect(regular.printable("Ọlá ₦ 中")).toBe("Ọlá ₦ ?");
    expect(regular.printable("a\u{E0101}b")).toBe("ab");
    expect(regular.printable("👨‍👩‍👧!")).toBe("?!"); // one emoji sequence, one mark
  });

  test("the fonts are parsed once per process", () => {
    expect(certificateFaces()).toBe(certificateFaces());
  });
});
