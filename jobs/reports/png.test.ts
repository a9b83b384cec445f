import { describe, expect, it } from "vitest";
import { BAR_SIZE, renderDailyBarSvg } from "./charts";
import { chartPng, PNG_SIGNATURE } from "./png";

/** Width and height from a PNG's IHDR chunk. */
const size = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe("report charts as PNG", () => {
  it("renders a chart's SVG to a PNG at 1.5 × its size", async () => {
    const svg = renderDailyBarSvg(
      ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((label, i) => ({ label, minutes: i * 30 })),
      "Daily screen time",
    );
    const png = await chartPng(svg);
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    expect(size(png)).toEqual({ width: BAR_SIZE.width * 1.5, height: BAR_SIZE.height * 1.5 });
  });

  it("draws the text with the font shipped in the dependencies (no system font needed)", async () => {
    const blank = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><rect width="100%" height="100%" fill="#fff"/></svg>`;
    const text = blank.replace(
      "</svg>",
      `<text x="10" y="28" font-family="Arial, Helvetica, sans-serif" font-size="20" fill="#000">1h 30m</text></svg>`,
    );
    const [a, b] = await Promise.all([chartPng(blank), chartPng(text)]);
    // Without a usable font resvg drops the text and both images are the same white box.
    expect(b.equals(a)).toBe(false);
    expect(b.length).toBeGreaterThan(a.length + 200);
  });
});
