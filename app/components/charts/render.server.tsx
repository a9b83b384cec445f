import type { AppLoadContext } from "@remix-run/node";
import { renderToStaticMarkup } from "react-dom/server";
import { documentOnly } from "~/utils/document-markup.server";
import { getOrCreateLru } from "#core/bounded";
import { CategoryBarChartAt, chartMarkupKey, type CategoryChartData, type ChartSvg } from "./CategoryBarChart";

/**
 * Server-side rendering of the stacked category chart to SVG markup, at the two fixed sizes the page uses.
 * The markup is a pure function of (data, title), so it is kept in a small LRU: a cold nivo render costs about
 * 20–30 ms per size on a 2-CPU machine, a repeated one (reloads, Show More, live refreshes) costs nothing.
 * The page ships the markup, so the client bundle does not need nivo at all.
 */
const CACHE_SIZE = 200;
const cache = new Map<string, ChartSvg>();

export const CHART_SIZES = { phone: { width: 340, height: 220 }, wide: { width: 640, height: 260 } } as const;

export function renderCategoryChart(data: CategoryChartData, title: string): ChartSvg {
  return getOrCreateLru(cache, JSON.stringify([title, data]), () => renderBoth(data, title), CACHE_SIZE);
}

function renderBoth(data: CategoryChartData, title: string): ChartSvg {
  // Coordinates to one decimal: the same picture in about half the bytes.
  const compact = (markup: string) => markup.replace(/(\d+\.\d)\d+/g, "$1");
  const svg = {
    phone: compact(renderToStaticMarkup(<CategoryBarChartAt data={data} title={title} {...CHART_SIZES.phone} />)),
    // The wide one scales to its card (CSS width: 100%): a viewBox keeps its proportions.
    wide: compact(renderToStaticMarkup(<CategoryBarChartAt data={data} title={title} {...CHART_SIZES.wide} />)).replace(
      /<svg /,
      `<svg viewBox="0 0 ${CHART_SIZES.wide.width} ${CHART_SIZES.wide.height}" preserveAspectRatio="xMidYMid meet" `,
    ),
  };
  return svg;
}

/**
 * The chart's SVGs for a loader's data: on a document request null, the markup kept for the render (the page shows
 * it once, in its HTML); on a data request the markup itself (app/utils/document-markup.ts).
 */
export function chartForPage(context: Pick<AppLoadContext, "documentMarkup">, data: CategoryChartData, title: string): ChartSvg | null {
  return documentOnly(context, chartMarkupKey(title), renderCategoryChart(data, title));
}

export function clearChartCache() {
  cache.clear();
}
