import { describe, expect, it } from "vitest";
import { seriesLook, swatchBackground } from "./chart-colours";
import { PIE_BY_CATEGORY, reportLegendColours } from "./report-colours";

const cats = [{ category: "SOCIAL" }, { category: "TOOLS" }];

describe("reportLegendColours", () => {
  it("a pie drawn in the categories' looks: the legend uses them (the dashboard's), the rest grey", () => {
    expect(reportLegendColours(`<svg ${PIE_BY_CATEGORY} xmlns="http://www.w3.org/2000/svg"></svg>`, cats)).toEqual({
      colours: ["#db2777", swatchBackground(seriesLook("TOOLS"))],
      other: "#64748b",
    });
  });

  it("a pie stored before (coloured by place): the legend keeps the colours that pie was drawn with", () => {
    expect(reportLegendColours(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`, cats)).toEqual({
      colours: ["#0f766e", "#2563eb"],
      other: "#94a3b8",
    });
  });
});
