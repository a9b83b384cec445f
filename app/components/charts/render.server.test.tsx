import { describe, expect, it } from "vitest";
import { CHART_SIZES, clearChartCache, renderCategoryChart } from "./render.server";

// The chart fills its card on wide screens (issue 11 item 5): the wide SVG scales with a viewBox.
describe("server-rendered chart", () => {
  it("the wide SVG has a viewBox so CSS can stretch it to its card; the phone one keeps its size", () => {
    clearChartCache();
    const data = { slots: ["Mon"], categories: [{ key: "E", name: "Education" }], rows: [{ slot: "Mon", values: { E: 30 } }] };
    const svg = renderCategoryChart(data, "t");
    expect(svg.wide).toMatch(
      new RegExp(`<svg viewBox="0 0 ${CHART_SIZES.wide.width} ${CHART_SIZES.wide.height}" preserveAspectRatio="xMidYMid meet" `),
    );
    expect(svg.phone).not.toContain("viewBox");
  });
});
