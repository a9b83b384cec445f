import type { BarCustomLayerProps, BarDatum } from "@nivo/bar";
import { formatMinutes } from "~/rules/minutes";
import { useDocumentMarkup } from "~/utils/document-markup";
import { seriesColour, seriesLook, STRIPES, swatchBackground } from "#core/chart-colours";
import { ChartTable, type ChartPeriod } from "./ChartTable";
import { Bar } from "./nivo.server";

export interface CategoryChartData {
  slots: string[];
  categories: { key: string; name: string }[];
  rows: { slot: string; values: Record<string, number> }[];
}

/**
 * The stacked category chart: nivo's SVG bar chart at a fixed size, rendered on the server (no animation,
 * no interactivity), so it reads the same with JavaScript off. A legend and a data table follow in HTML.
 */
/**
 * The bars as plain rectangles from nivo's computed layout: nivo's own bars layer animates every bar through
 * react-spring transitions, which costs tens of milliseconds per server render; nothing is drawn for empty segments.
 * Each series in its look (core/chart-colours.ts: a colour, solid or striped); a white edge parts stacked segments
 * (two series of one look still read as two); `data-key` names the series. The stripes' pattern ids carry `idPrefix`
 * (the chart's width): the phone and the wide chart share a page.
 */
function plainBars(idPrefix: string) {
  return function PlainBars({ bars }: BarCustomLayerProps<BarDatum>) {
    const drawn = bars.filter((bar) => bar.height > 0.2 && bar.width > 0);
    const looks = new Map(drawn.map((bar) => [String(bar.data.id), seriesLook(String(bar.data.id))]));
    const striped = [...new Set([...looks.values()].filter((l) => l.striped).map((l) => l.colour))];
    const patternId = (colour: string) => `${idPrefix}-stripes-${colour.slice(1)}`;
    return (
      <g>
        {striped.length ? (
          <defs>
            {striped.map((colour) => (
              <pattern
                key={colour}
                id={patternId(colour)}
                patternUnits="userSpaceOnUse"
                width={STRIPES.period}
                height={STRIPES.period}
                patternTransform="rotate(45)"
              >
                <rect width={STRIPES.period} height={STRIPES.period} fill={colour} />
                <rect
                  x={STRIPES.period - STRIPES.width}
                  width={STRIPES.width}
                  height={STRIPES.period}
                  fill="#ffffff"
                  fillOpacity={STRIPES.opacity}
                />
              </pattern>
            ))}
          </defs>
        ) : null}
        {drawn.map((bar) => {
          const look = looks.get(String(bar.data.id))!;
          return (
            <rect
              key={`${bar.key}`}
              x={bar.x}
              y={bar.y}
              width={bar.width}
              height={bar.height}
              fill={look.striped ? `url(#${patternId(look.colour)})` : look.colour}
              stroke="#ffffff"
              strokeWidth={0.75}
              data-key={String(bar.data.id)}
            />
          );
        })}
      </g>
    );
  };
}

/** The layers at one chart width (kept: nivo sees the same layer from render to render). */
const layersByWidth = new Map<number, readonly ["grid", "axes", ReturnType<typeof plainBars>]>();
function layersAt(width: number) {
  let layers = layersByWidth.get(width);
  if (!layers) {
    layers = ["grid", "axes", plainBars(`chart${width}`)] as const;
    layersByWidth.set(width, layers);
  }
  return layers;
}

/** A y-axis step in whole quarter/half/full hours so ticks read 30m, 1h, 1h 30m… */
export function niceStep(maxMinutes: number, ticks = 4): number {
  const raw = Math.max(1, maxMinutes) / ticks;
  return [5, 10, 15, 30, 60, 90, 120, 180, 240, 360, 480, 720].find((s) => s >= raw) ?? Math.ceil(raw / 60) * 60;
}

/**
 * The figure around the server-rendered SVGs (see render.server.tsx): two fixed sizes (phone and wide screens),
 * CSS shows the one that fits; the legend is plain HTML. Readable without JavaScript.
 */
export function CategoryChartFigure({
  svg,
  data,
  title,
  period,
}: {
  svg: ChartSvg | null;
  data: CategoryChartData;
  title: string;
  period: ChartPeriod;
}) {
  const shown = useChartSvg(svg, title);
  return (
    <figure className="chart" aria-label={title}>
      <ChartTable data={data} title={title} period={period} />
      <div className="chart-svg chart-size-phone" role="img" aria-label={title} dangerouslySetInnerHTML={{ __html: shown.phone }} />
      <div className="chart-svg chart-size-wide" role="img" aria-label={title} dangerouslySetInnerHTML={{ __html: shown.wide }} />
      {data.categories.length ? (
        <figcaption>
          <ul className="chart-legend">
            {data.categories.map((c) => (
              <li key={c.key}>
                <span className="swatch" style={{ background: swatchBackground(seriesLook(c.key)) }} data-key={c.key} aria-hidden="true" />
                {c.name}
              </li>
            ))}
          </ul>
        </figcaption>
      ) : (
        <figcaption className="muted">No screen time in this period.</figcaption>
      )}
    </figure>
  );
}

/** The chart's two server-rendered SVGs (render.server.tsx): phone and wide screens. */
export interface ChartSvg {
  phone: string;
  wide: string;
}

/** Where a document's chart markup is kept for its render (app/utils/document-markup.ts): one chart per title. */
export const chartMarkupKey = (title: string) => `chart:${title}`;

/** Browser: the charts' markup already shown, by title (a few; a document's chart read back from its HTML once). */
const shownInBrowser = new Map<string, ChartSvg>();

/**
 * The markup to show: the loader data's when it carries it (data requests); on the server a document's from its
 * render's context; in the browser, hydrating a document whose data carried none, the markup its HTML already
 * holds, read once and kept (a remount shows it again).
 */
function useChartSvg(svg: ChartSvg | null, title: string): ChartSvg {
  const fromRender = useDocumentMarkup<ChartSvg>(chartMarkupKey(title));
  if (typeof document === "undefined") return svg ?? fromRender ?? { phone: "", wide: "" };
  if (svg) {
    keepShown(title, svg);
    return svg;
  }
  let kept = shownInBrowser.get(title);
  if (!kept) {
    const figure = [...document.querySelectorAll<HTMLElement>("figure.chart")].find((f) => f.getAttribute("aria-label") === title);
    kept = {
      phone: figure?.querySelector(".chart-size-phone")?.innerHTML ?? "",
      wide: figure?.querySelector(".chart-size-wide")?.innerHTML ?? "",
    };
    if (figure) keepShown(title, kept);
  }
  return kept;
}

function keepShown(title: string, svg: ChartSvg) {
  shownInBrowser.delete(title);
  shownInBrowser.set(title, svg);
  if (shownInBrowser.size > 8) shownInBrowser.delete(shownInBrowser.keys().next().value as string);
}

/** nivo's bar chart at one fixed size: no animation, no interactivity, no legend (the figure has an HTML one). */
export function CategoryBarChartAt({
  data,
  title,
  width,
  height,
}: {
  data: CategoryChartData;
  title: string;
  width: number;
  height: number;
}) {
  const keys = data.categories.map((c) => c.key);
  const rows: BarDatum[] = data.rows.map((r) => ({ slot: r.slot, ...r.values }));
  const maxTotal = Math.max(0, ...data.rows.map((r) => Object.values(r.values).reduce((a, b) => a + b, 0)));
  const isDay = data.slots.length === 24;
  const step = niceStep(maxTotal);
  const tickValues = Array.from({ length: Math.max(1, Math.ceil(Math.max(1, maxTotal) / step)) + 1 }, (_, i) => i * step);
  return (
    <Bar
      data={rows}
      keys={keys}
      indexBy="slot"
      width={width}
      height={height}
      margin={{ top: 10, right: 8, bottom: 28, left: 56 }}
      padding={isDay ? 0.2 : 0.35}
      colors={(bar) => seriesColour(String(bar.id))}
      enableLabel={false}
      layers={layersAt(width)}
      animate={false}
      isInteractive={false}
      role="img"
      ariaLabel={title}
      valueScale={{ type: "linear", min: 0, max: tickValues[tickValues.length - 1] }}
      axisLeft={{ tickSize: 0, tickPadding: 6, tickValues, format: (v) => formatMinutes(Number(v)) }}
      axisBottom={{
        tickSize: 0,
        tickPadding: 6,
        tickValues: isDay ? ["00", "06", "12", "18"] : undefined,
        format: (v) => (isDay ? `${v}h` : String(v)),
      }}
      gridYValues={tickValues}
      theme={{ text: { fontSize: 11, fill: "#4b5563" }, grid: { line: { stroke: "#e5e7eb" } } }}
    />
  );
}
