import { describe, expect, it } from "vitest";
import { CHART_PALETTE, REST_COLOUR, REST_KEY, seriesColour, seriesLook, swatchBackground } from "./chart-colours";

/** WCAG relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** What a chart does: colours for the keys it shows, in the order it shows them. */
const coloursOf = (keys: string[]) => new Map(keys.map((k) => [k, seriesColour(k)]));

describe("seriesColour", () => {
  it.each([
    ["EDUCATION", "#0f766e"],
    ["COMMUNICATION", "#2563eb"],
    ["GAME_ACTION", "#d97706"],
    ["ENTERTAINMENT", "#9333ea"],
    ["SOCIAL", "#db2777"],
    ["GAME_ARCADE", "#4d7c0f"],
    ["VIDEO_PLAYERS", "#b91c1c"],
    ["GAME_CASUAL", "#0891b2"],
    ["MUSIC_AND_AUDIO", "#92400e"],
    ["GAME_PUZZLE", "#4338ca"],
    ["TOOLS", "#0f766e"],
    ["Others", "#d97706"],
    [REST_KEY, REST_COLOUR],
  ])("%s → %s", (key, colour) => {
    expect(seriesColour(key)).toBe(colour);
  });

  it("keeps a key's colour whatever the order or the subset of the data (Day, Week, another page)", () => {
    const week = ["GAME_ACTION", "SOCIAL", "EDUCATION", "VIDEO_PLAYERS", "com.example.app", REST_KEY];
    const day = ["EDUCATION", "com.example.app", "GAME_ACTION"];
    const reversed = [...week].reverse();
    const w = coloursOf(week);
    for (const keys of [day, reversed, ["GAME_ACTION"]]) {
      for (const [k, c] of coloursOf(keys)) expect(c, k).toBe(w.get(k));
    }
  });

  it("gives a key it does not list (a package name, a new category) a palette colour, always the same", () => {
    for (const key of ["com.roblox.client", "com.whatsapp", "NEW_CATEGORY", ""]) {
      expect(CHART_PALETTE).toContain(seriesColour(key));
      expect(seriesColour(key)).toBe(seriesColour(`${key}`));
    }
    expect(seriesColour("com.roblox.client")).toBe("#9333ea");
    expect(seriesColour("com.whatsapp")).toBe("#db2777");
  });

  it.each([
    ["EDUCATION", { colour: "#0f766e", striped: false }],
    ["TOOLS", { colour: "#0f766e", striped: true }],
    ["BOOKS_AND_REFERENCE", { colour: "#2563eb", striped: true }],
    ["PHOTOGRAPHY", { colour: "#0f766e", striped: false }],
    [REST_KEY, { colour: REST_COLOUR, striped: false }],
  ])("%s looks %j", (key, look) => {
    expect(seriesLook(key)).toEqual(look);
  });

  it("gives the twenty categories kids use most (the demo family's among them) twenty different looks", () => {
    const top = [
      ...["EDUCATION", "COMMUNICATION", "GAME_ACTION", "ENTERTAINMENT", "SOCIAL", "GAME_ARCADE", "VIDEO_PLAYERS"],
      ...["GAME_CASUAL", "MUSIC_AND_AUDIO", "GAME_PUZZLE", "TOOLS", "BOOKS_AND_REFERENCE", "FAMILY_EDUCATION", "GAME_RACING"],
      ...["FAMILY_PRETEND", "GAME_STRATEGY", "HEALTH_AND_FITNESS", "PRODUCTIVITY", "GAME_MUSIC", "FOOD_AND_DRINK"],
    ];
    expect(new Set(top.map((k) => JSON.stringify(seriesLook(k)))).size).toBe(20);
  });

  it("a swatch: the colour, or the colour under lighter stripes", () => {
    expect(swatchBackground({ colour: "#0f766e", striped: false })).toBe("#0f766e");
    expect(swatchBackground({ colour: "#0f766e", striped: true })).toBe(
      "repeating-linear-gradient(45deg, transparent 0 4px, rgb(255 255 255 / 0.55) 4px 6px), #0f766e",
    );
  });

  it("gives the ten categories kids use most ten different colours", () => {
    const top = [
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
    ];
    expect(new Set(top.map(seriesColour)).size).toBe(10);
  });

  it("uses one palette of distinct colours, each at least 3:1 against the white card, the rest grey too", () => {
    expect(new Set(CHART_PALETTE).size).toBe(CHART_PALETTE.length);
    expect(CHART_PALETTE).not.toContain(REST_COLOUR);
    for (const c of [...CHART_PALETTE, REST_COLOUR]) expect(contrast(c, "#ffffff"), c).toBeGreaterThanOrEqual(3);
  });
});
