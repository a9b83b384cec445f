/**
 * One colour per chart series, the same on every chart and page (the dashboard's Day and Week charts, a
 * category's page, a report's pie and its mail): a pure function of the series' stable key (a Play Store
 * category id, a package name), never of its place in the data.
 *
 * The palette: ten hues far apart, each at least 3:1 against the white card (WCAG 1.4.11, non-text contrast),
 * neighbours in the palette never two shades of one hue. The categories a kid uses most get ten different
 * colours (CATEGORY_ORDER); every other key takes its palette place from a hash of its text. Stacked
 * segments are drawn with a white gap, so two series that share a colour still read as two.
 */
export const CHART_PALETTE = [
  "#0f766e", // teal
  "#2563eb", // blue
  "#d97706", // amber
  "#9333ea", // purple
  "#db2777", // pink
  "#4d7c0f", // green
  "#b91c1c", // red
  "#0891b2", // cyan
  "#92400e", // brown
  "#4338ca", // indigo
] as const;

/** "Other categories" / "Other apps" (everything after the top ones): always this grey. */
export const REST_COLOUR = "#64748b";
/** The key of the "Other categories" / "Other apps" series on every chart. */
export const REST_KEY = "__rest";

/**
 * Play Store category ids in palette order: the first ten (what kids use most) each get their own colour, the
 * next ten the same colours again in an order that keeps the games apart from each other, and so on.
 */
const CATEGORY_ORDER = [
  "EDUCATION",
  "COMMUNICATION",
  "GAME_ACTION",
  "ENTERTAINMENT",
  "SOCIAL",
  "GAME_ARCADE",
  "VIDEO_PLAYERS",
  "GAME_CASUAL",
  "MUSIC_AND_AUDIO",
  "GAME_PUZZLE",
  // again from teal
  "TOOLS",
  "PHOTOGRAPHY",
  "BOOKS_AND_REFERENCE",
  "GAME_ADVENTURE",
  "GAME_SIMULATION",
  "PRODUCTIVITY",
  "GAME_ROLE_PLAYING",
  "FAMILY",
  "GAME_STRATEGY",
  "ART_AND_DESIGN",
  // again
  "GAME_RACING",
  "GAME_SPORTS",
  "SPORTS",
  "FAMILY_EDUCATION",
  "GAME_EDUCATIONAL",
  "HEALTH_AND_FITNESS",
  "Others",
  "GAME_WORD",
  "COMICS",
  "FAMILY_CREATE",
  // again
  "GAME_BOARD",
  "GAME_CARD",
  "GAME_TRIVIA",
  "GAME_MUSIC",
  "PERSONALIZATION",
  "MAPS_AND_NAVIGATION",
  "NEWS_AND_MAGAZINES",
  "FAMILY_PRETEND",
  "FAMILY_BRAINGAMES",
  "FAMILY_ACTION",
  // again
  "FAMILY_MUSICVIDEO",
  "LIFESTYLE",
  "SHOPPING",
  "WEATHER",
  "TRAVEL_AND_LOCAL",
  "FOOD_AND_DRINK",
  "GAME_CASINO",
  "AUTO_AND_VEHICLES",
  "PARENTING",
  "HOUSE_AND_HOME",
  // again
  "BUSINESS",
  "FINANCE",
  "EVENTS",
  "MEDICAL",
  "BEAUTY",
  "DATING",
  "LIBRARIES_AND_DEMO",
] as const;

const PLACE = new Map<string, number>(CATEGORY_ORDER.map((id, i) => [id, i % CHART_PALETTE.length]));

/** FNV-1a over the key's UTF-16 code units: a small, stable spread for the keys CATEGORY_ORDER does not list. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The colour of one chart series: a category id or a package name; the rest series is grey. */
export function seriesColour(key: string): string {
  if (key === REST_KEY) return REST_COLOUR;
  return CHART_PALETTE[PLACE.get(key) ?? hash(key) % CHART_PALETTE.length];
}
