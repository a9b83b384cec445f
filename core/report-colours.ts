import { CHART_PALETTE, REST_KEY, seriesLook, swatchBackground } from "./chart-colours";

/** The pie's last slice: every category after the top ones (always grey). */
export const OTHER_CATEGORIES = REST_KEY;
/** The daily bars' one colour. */
export const DAILY_BAR_COLOUR = CHART_PALETTE[0];

/** The mark a report's pie carries when its slices have their categories' colours (core/chart-colours.ts). */
export const PIE_BY_CATEGORY = 'data-colours="by-category"';

/** Reports built before the pie took its categories' colours (issue 53) coloured it by the slice's place. */
const BY_PLACE = ["#0f766e", "#2563eb", "#d97706", "#9333ea", "#db2777", "#65a30d", "#0891b2", "#b45309"];
const BY_PLACE_OTHER = "#94a3b8";

/**
 * The legend swatches' CSS backgrounds for a stored report: the categories' own looks (the same as on the
 * dashboard), or for a report whose stored pie was drawn before that, the colours that pie was drawn with, so
 * legend and pie agree.
 */
export function reportLegendColours(pieSvg: string, categories: { category: string }[]): { colours: string[]; other: string } {
  if (pieSvg.includes(PIE_BY_CATEGORY)) {
    return { colours: categories.map((c) => swatchBackground(seriesLook(c.category))), other: swatchBackground(seriesLook(REST_KEY)) };
  }
  return { colours: categories.map((_, i) => BY_PLACE[i % BY_PLACE.length]), other: BY_PLACE_OTHER };
}
