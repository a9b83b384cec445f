import { Bar, type BarCustomLayerProps, type BarDatum } from "@nivo/bar";
import { Pie } from "@nivo/pie";
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { formatMinutes } from "../../core/duration";
import { seriesLook, STRIPES } from "../../core/chart-colours";
import { DAILY_BAR_COLOUR, PIE_BY_CATEGORY } from "../../core/report-colours";

/**
 * A report's two charts as standalone SVG documents, rendered once on the server with nivo's static
 * components (no animation, no interactivity) and stored with the report: the page shows them as images
 * (no JavaScript needed) and the mail carries them as inline attachments. Plain createElement, no JSX: this
 * module runs in the job worker, the back-fill CLI and tests alike, whatever JSX runtime their loader picks.
 */
export const BAR_SIZE = { width: 640, height: 260 };
export const PIE_SIZE = { width: 320, height: 320 };

/** nivo wraps its SVG in a positioned div; an image needs the bare <svg> (with its xmlns), coordinates to one decimal. */
function bareSvg(markup: string, title: string): string {
  const start = markup.indexOf("<svg");
  const end = markup.lastIndexOf("</svg>");
  const svg = markup.slice(start, end + 6).replace(/(\d+\.\d)\d+/g, "$1");
  const escaped = title.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  // A white background and a <title> so the image reads the same in a mail client and to a screen reader.
  return svg.replace(/^<svg([^>]*)>/, `<svg$1><title>${escaped}</title><rect width="100%" height="100%" fill="#ffffff"/>`);
}

function PlainBars({ bars }: BarCustomLayerProps<BarDatum>) {
  return h(
    "g",
    null,
    ...bars.map((bar) =>
      bar.height > 0.2
        ? h("rect", { key: String(bar.key), x: bar.x, y: bar.y, width: bar.width, height: bar.height, fill: bar.color })
        : null,
    ),
  );
}

function niceStep(maxMinutes: number, ticks = 4): number {
  const raw = Math.max(1, maxMinutes) / ticks;
  return [5, 10, 15, 30, 60, 90, 120, 180, 240, 360, 480, 720].find((s) => s >= raw) ?? Math.ceil(raw / 60) * 60;
}

/** Daily use: one bar per day of the period. */
export function renderDailyBarSvg(days: { label: string; minutes: number }[], title: string): string {
  const max = Math.max(0, ...days.map((d) => d.minutes));
  const step = niceStep(max);
  const tickValues = Array.from({ length: Math.max(1, Math.ceil(Math.max(1, max) / step)) + 1 }, (_, i) => i * step);
  const many = days.length > 7;
  const markup = renderToStaticMarkup(
    h(Bar, {
      data: days.map((d): BarDatum => ({ day: d.label, minutes: d.minutes })),
      keys: ["minutes"],
      indexBy: "day",
      ...BAR_SIZE,
      margin: { top: 12, right: 10, bottom: 30, left: 58 },
      padding: many ? 0.2 : 0.35,
      colors: [DAILY_BAR_COLOUR],
      enableLabel: false,
      layers: ["grid", "axes", PlainBars],
      animate: false,
      isInteractive: false,
      role: "img",
      ariaLabel: title,
      valueScale: { type: "linear", min: 0, max: tickValues[tickValues.length - 1] },
      axisLeft: { tickSize: 0, tickPadding: 6, tickValues, format: (v: unknown) => formatMinutes(Number(v)) },
      axisBottom: { tickSize: 0, tickPadding: 6, tickValues: many ? days.filter((_, i) => i % 5 === 0).map((d) => d.label) : undefined },
      gridYValues: tickValues,
      theme: { text: { fontSize: 11, fill: "#374151", fontFamily: "Arial, Helvetica, sans-serif" }, grid: { line: { stroke: "#e5e7eb" } } },
    }),
  );
  return bareSvg(markup, title);
}

/**
 * Categories: one slice per category (the top ones; the rest as "Other categories"), each in its category's colour
 * (the dashboard's); the SVG carries PIE_BY_CATEGORY so the report page knows its legend may use those colours.
 */
export function renderCategoryPieSvg(categories: { category: string; name: string; minutes: number }[], title: string): string {
  const data = categories
    .map((c) => {
      const look = seriesLook(c.category);
      return { id: c.name, label: c.name, value: c.minutes, color: look.colour, striped: look.striped };
    })
    .filter((d) => d.value > 0);
  // A striped look: nivo's line pattern over the slice's colour (the same stripes as the dashboard's bars).
  const stripes = [...new Set(data.filter((d) => d.striped).map((d) => d.color))];
  const stripesId = (colour: string) => `stripes-${colour.slice(1)}`;
  if (!data.length) {
    const empty = `<svg xmlns="http://www.w3.org/2000/svg" width="${PIE_SIZE.width}" height="${PIE_SIZE.height}" role="img"><circle cx="160" cy="160" r="120" fill="#e5e7eb"/><text x="160" y="165" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="13" fill="#374151">No screen time</text></svg>`;
    return bareSvg(empty, title);
  }
  const markup = renderToStaticMarkup(
    h(Pie<(typeof data)[number]>, {
      data,
      ...PIE_SIZE,
      margin: { top: 20, right: 20, bottom: 20, left: 20 },
      innerRadius: 0.5,
      padAngle: 0.6,
      colors: { datum: "data.color" },
      defs: stripes.map((colour) => ({
        id: stripesId(colour),
        type: "patternLines",
        background: colour,
        color: `rgba(255, 255, 255, ${STRIPES.opacity})`,
        rotation: -45,
        lineWidth: STRIPES.width,
        spacing: STRIPES.period,
      })),
      fill: data.filter((d) => d.striped).map((d) => ({ id: stripesId(d.color), match: { id: d.id } })),
      enableArcLinkLabels: false,
      arcLabel: (d) => formatMinutes(d.value),
      arcLabelsSkipAngle: 18,
      arcLabelsTextColor: "#ffffff",
      animate: false,
      isInteractive: false,
      role: "img",
      theme: { text: { fontSize: 11, fontFamily: "Arial, Helvetica, sans-serif" } },
    }),
  );
  return bareSvg(markup, title).replace(/^<svg xmlns="([^"]+)"/, `<svg xmlns="$1" ${PIE_BY_CATEGORY}`);
}
