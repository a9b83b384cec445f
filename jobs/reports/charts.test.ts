import { describe, expect, it } from "vitest";
import { seriesColour, seriesLook } from "../../core/chart-colours";
import { OTHER_CATEGORIES, PIE_BY_CATEGORY, reportLegendColours } from "../../core/report-colours";
import { renderCategoryPieSvg } from "./charts";

/** The slices' fills (nivo writes them as rgba(r, g, b, 1)) as #rrggbb. */
const fills = (svg: string) =>
  [...svg.matchAll(/<path[^>]*fill="rgba\((\d+), (\d+), (\d+), 1\)"/g)].map(
    (m) => `#${[m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, "0")).join("")}`,
  );

describe("the report's pie", () => {
  it("colours each category as the dashboard does, whatever its place, and its legend agrees", () => {
    const a = { category: "SOCIAL", name: "Social", minutes: 50 };
    const b = { category: "GAME_ACTION", name: "Action", minutes: 30 };
    const rest = { category: OTHER_CATEGORIES, name: "Other categories", minutes: 10 };
    const one = renderCategoryPieSvg([a, b, rest], "One");
    const other = renderCategoryPieSvg([b, a], "Other");
    expect(one).toContain(PIE_BY_CATEGORY);
    expect(fills(one)).toEqual(expect.arrayContaining([seriesColour("SOCIAL"), seriesColour("GAME_ACTION"), "#64748b"]));
    expect(new Set(fills(other))).toEqual(new Set([seriesColour("SOCIAL"), seriesColour("GAME_ACTION")]));
    const legend = reportLegendColours(one, [a, b]);
    expect(new Set([...legend.colours, legend.other])).toEqual(new Set(fills(one)));
  });

  it("draws a striped category's slice with lighter stripes over its colour", () => {
    const tools = { category: "TOOLS", name: "Tools", minutes: 40 };
    const svg = renderCategoryPieSvg([{ category: "SOCIAL", name: "Social", minutes: 50 }, tools], "Striped");
    expect(seriesLook("TOOLS").striped).toBe(true);
    const slice = /<path[^>]*fill="url\(#([^)]+)\)"[^>]*data-testid="arc\.Tools"/.exec(svg);
    expect(slice).not.toBeNull();
    const pattern = new RegExp(`<pattern id="${slice![1]}"[\\s\\S]*?</pattern>`).exec(svg)?.[0] ?? "";
    expect(pattern).toContain(`fill="${seriesColour("TOOLS")}"`);
    expect(pattern).toContain("rgba(255, 255, 255, 0.5"); // coordinates and numbers to one decimal
  });
});
