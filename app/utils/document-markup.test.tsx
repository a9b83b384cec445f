import { afterEach, describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import { chartForPage, renderCategoryChart } from "~/components/charts/render.server";
import { CategoryChartFigure, chartMarkupKey } from "~/components/charts/CategoryBarChart";
import { DocumentMarkupContext } from "./document-markup";
import { documentOnly } from "./document-markup.server";

const chart = {
  slots: ["Mon", "Tue"],
  categories: [{ key: "GAME", name: "Games" }],
  rows: [
    { slot: "Mon", values: { GAME: 30 } },
    { slot: "Tue", values: { GAME: 45 } },
  ],
};
const title = "Mia's screen time by category, This Week, by day";

describe("markup a document renders but does not ship again in its data", () => {
  it("is kept for the render on a document request and carried by the data otherwise", () => {
    const documentMarkup = new Map<string, unknown>();
    expect(documentOnly({ documentMarkup }, "k", "<svg/>")).toBeNull();
    expect(documentMarkup.get("k")).toBe("<svg/>");
    expect(documentOnly({}, "k", "<svg/>")).toBe("<svg/>");
  });

  it("renders a document's chart from the render's context, the same markup the data would have carried", () => {
    const documentMarkup = new Map<string, unknown>();
    const svg = chartForPage({ documentMarkup }, chart, title);
    expect(svg).toBeNull();
    expect(documentMarkup.get(chartMarkupKey(title))).toEqual(renderCategoryChart(chart, title));
    const period = { filter: "week" as const, from: "2026-11-23" };
    const fromContext = renderToString(
      <DocumentMarkupContext.Provider value={documentMarkup}>
        <CategoryChartFigure svg={svg} data={chart} title={title} period={period} />
      </DocumentMarkupContext.Provider>,
    );
    const fromData = renderToString(
      <CategoryChartFigure svg={chartForPage({}, chart, title)} data={chart} title={title} period={period} />,
    );
    expect(fromContext).toBe(fromData);
    expect(fromContext.match(/<svg\b/g)).toHaveLength(2);
  });

  describe("in the browser", () => {
    // A stand-in for the document being hydrated: its HTML holds the figure the server rendered.
    const period = { filter: "week" as const, from: "2026-11-23" };
    const inBrowser = (figures: { title: string; phone: string; wide: string }[]) => {
      const html = (f: { phone: string; wide: string }, size: "phone" | "wide") => ({ innerHTML: f[size] });
      Object.assign(globalThis, {
        document: {
          querySelectorAll: () =>
            figures.map((f) => ({
              getAttribute: (name: string) => (name === "aria-label" ? f.title : null),
              querySelector: (sel: string) => (sel.includes("phone") ? html(f, "phone") : html(f, "wide")),
            })),
        },
      });
    };
    const shown = (svg: { phone: string; wide: string } | null, forTitle = title) =>
      renderToString(<CategoryChartFigure svg={svg} data={chart} title={forTitle} period={period} />);
    afterEach(() => {
      delete (globalThis as { document?: unknown }).document;
    });

    it("shows what the hydrated document shows when its data carries no markup, and again after a remount", () => {
      const served = renderCategoryChart(chart, title);
      inBrowser([{ title, ...served }]);
      const fromDocument = shown(null);
      // The figure gone (unmounted), then mounted again from the same data: the markup read once is kept.
      inBrowser([]);
      expect(shown(null)).toBe(fromDocument);
      expect(fromDocument).toBe(shown(served));
      // Data that carries markup (client-side navigation) wins, and is what a later remount shows.
      const other = { phone: "<svg><title>new</title></svg>", wide: "<svg><title>new wide</title></svg>" };
      expect(shown(other)).toContain("new wide");
      expect(shown(null)).toContain("new wide");
      // Another chart the page never showed: nothing to show rather than another chart's markup.
      expect(shown(null, "Leo's screen time by category, today, by hour")).not.toContain("<svg");
    });
  });
});
