import { describe, expect, test } from "bun:test";
import { prmm, quoteRefusal } from "./support";

describe("phone and laptop warranty premiums", () => {
  test.each([
    ["phnn-flx1-1111", "6m", 3600],
    ["phnn-flx1-1111", "1y", 7200],
    ["phnn-flx2-1111", "6m", 10800],
    ["phnn-flx2-1111", "1y", 21600],
    // Not shown in the spec: chosen.
    ["phnn-flx3-1111", "6m", 32400],
    ["phnn-flx3-1111", "1y", 64800],
    ["lapt-flx1-1111", "1y", 48000],
    ["lapt-flx2-1111", "1y", 72000],
    // Not shown in the spec: 55% of annual.
    ["lapt-flx1-1111", "6m", 26400],
    ["lapt-flx2-1111", "6m", 39600],
  ])("%s %s → %d", (code, insrncDrtn, naira) => {
    expect(prmm(code, { insrncDrtn })).toBe(naira);
  });

  test.each(["phnn-flx1-1111", "lapt-flx2-1111"])("%s: insrncDrtn only 6m or 1y", (code) => {
    for (const insrncDrtn of ["1m", "3m", "12m", "7d"]) {
      const error = quoteRefusal(code, { insrncDrtn });
      expect(error.field).toBe("seed.insrncDrtn");
      expect(error.message).toContain('must be one of "6m", "1y"');
    }
    expect(quoteRefusal(code, {}).message).toBe("seed.insrncDrtn is required");
  });
});
