/**
 * One look per chart series, the same on every chart and page (the dashboard's Day and Week charts, a category's
 * page, an app's page, a report's pie and its mail): a pure function of the series' stable key (a Play Store
 * category id, a package name), never of its place in the data.
 *
 * The palette: ten hues far apart, each at least 3:1 against the white card (WCAG 1.4.11, non-text contrast),
 * neighbours in the palette never two shades of one hue. Each hue comes solid or striped (lighter stripes over
 * it): twenty looks. The twenty categories kids use most get twenty different looks (CATEGORY_ORDER); every
 * other key takes its look from a hash of its text. Stacked segments are drawn with a white gap, so two series
 * that share a look still read as two.
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
 * Play Store category ids in look order: the first ten (what kids use most) each get their own colour, solid; the
 * next ten the same colours striped; then solid again, and so on. Past the first twenty, a category shares its
 * look with one of them that is seldom used beside it (the demo family's categories are among the twenty).
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
  // striped, from teal
  "TOOLS",
  "BOOKS_AND_REFERENCE",
  "FAMILY_EDUCATION",
  "GAME_RACING",
  "FAMILY_PRETEND",
  "GAME_STRATEGY",
  "HEALTH_AND_FITNESS",
  "PRODUCTIVITY",
  "GAME_MUSIC",
  "FOOD_AND_DRINK",
  // solid again
  "PHOTOGRAPHY",
  "GAME_ADVENTURE",
  "Others",
  "TRAVEL_AND_LOCAL",
  "GAME_SIMULATION",
  "GAME_ROLE_PLAYING",
  "FAMILY",
  "ART_AND_DESIGN",
  "SPORTS",
  "GAME_SPORTS",
  // striped again
  "WEATHER",
  "GAME_EDUCATIONAL",
  "FAMILY_MUSICVIDEO",
  "FAMILY_CREATE",
  "GAME_WORD",
  "COMICS",
  "FAMILY_ACTION",
  "GAME_BOARD",
  "GAME_CARD",
  "GAME_TRIVIA",
  // solid again
  "PERSONALIZATION",
  "MAPS_AND_NAVIGATION",
  "NEWS_AND_MAGAZINES",
  "FAMILY_BRAINGAMES",
  "LIFESTYLE",
  "SHOPPING",
  "GAME_CASINO",
  "AUTO_AND_VEHICLES",
  "PARENTING",
  "HOUSE_AND_HOME",
  // striped again
  "BUSINESS",
  "FINANCE",
  "EVENTS",
  "MEDICAL",
  "BEAUTY",
  "DATING",
  "LIBRARIES_AND_DEMO",
] as const;

/** The number of looks: each palette colour solid, then striped. */
const LOOKS = CHART_PALETTE.length * 2;
const PLACE = new Map<string, number>(CATEGORY_ORDER.map((id, i) => [id, i % LOOKS]));

/** FNV-1a over the key's UTF-16 code units: a small, stable spread for the keys CATEGORY_ORDER does not list. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface SeriesLook {
  colour: string;
  /** Lighter stripes over the colour (STRIPES). */
  striped: boolean;
}

/** The stripes: every STRIPES.period pixels a STRIPES.width-pixel band of white at STRIPES.opacity, at 45°. */
export const STRIPES = { period: 6, width: 2, opacity: 0.55 } as const;

/** The look of one chart series: a category id or a package name; the rest series is plain grey. */
export function seriesLook(key: string): SeriesLook {
  if (key === REST_KEY) return { colour: REST_COLOUR, striped: false };
  const place = PLACE.get(key) ?? hash(key) % LOOKS;
  return { colour: CHART_PALETTE[place % CHART_PALETTE.length], striped: place >= CHART_PALETTE.length };
}

/** The series' colour (its stripes aside). */
export function seriesColour(key: string): string {
  return seriesLook(key).colour;
}

/** A legend swatch's CSS background for a look: the colour, under the stripes when striped. */
export function swatchBackground(look: SeriesLook): string {
  if (!look.striped) return look.colour;
  const { period, width, opacity } = STRIPES;
  return `repeating-linear-gradient(45deg, transparent 0 ${period - width}px, rgb(255 255 255 / ${opacity}) ${period - width}px ${period}px), ${look.colour}`;
}
