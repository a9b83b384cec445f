import { createRequire } from "node:module";
import { renderAsync } from "@resvg/resvg-js";

/**
 * A report chart's SVG (jobs/reports/charts.ts) as a PNG for mail: Gmail and Outlook show no SVG images. resvg
 * (Rust, prebuilt per platform through npm, no network at run time) rasterises off the event loop (libuv's
 * thread pool), at 1.5 × the SVG's size (sharp enough on high-density screens; 2 × costs half as much again per report,
 * see docs/performance.md). The text uses one font that
 * ships with the dependencies (Inter, SIL OFL 1.1): no system font is needed, and every machine draws the
 * same pixels.
 */
const require = createRequire(import.meta.url);
export const CHART_FONT_FAMILY = "Inter";
export const CHART_FONT_FILE = require.resolve("@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf");

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export async function chartPng(svg: string, scale = 1.5): Promise<Buffer> {
  const image = await renderAsync(svg, {
    fitTo: { mode: "zoom", value: scale },
    background: "#ffffff",
    font: {
      fontFiles: [CHART_FONT_FILE],
      loadSystemFonts: false,
      defaultFontFamily: CHART_FONT_FAMILY,
      sansSerifFamily: CHART_FONT_FAMILY,
    },
  });
  return image.asPng();
}
