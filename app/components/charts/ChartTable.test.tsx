import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CategoryChartFigure } from "./CategoryBarChart";

// The usage chart's text alternative (issue 11 item 7): a visually hidden table with the numbers.
const data = {
  slots: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
  categories: [
    { key: "EDUCATION", name: "Education" },
    { key: "GAME_ACTION", name: "Action" },
  ],
  rows: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((slot, i) => ({
    slot,
    values: { EDUCATION: i === 1 ? 45 : 0, GAME_ACTION: i === 1 ? 90 : 0 },
  })),
};

describe("usage chart text alternative", () => {
  it("is a table in a visually hidden block: a row per day with its date, a column per category and the total", () => {
    const html = renderToString(
      <CategoryChartFigure
        svg={{ phone: "<svg></svg>", wide: "<svg></svg>" }}
        data={data}
        title="Mia's screen time"
        period={{ filter: "week", from: "2026-11-16" }}
      />,
    );
    expect(html).toMatch(/<div class="sr-only"><table[^>]*>/);
    expect(html).toContain("<caption>Mia&#x27;s screen time, in minutes</caption>");
    expect(html).toMatch(/<th scope="col">Education<\/th><th scope="col">Action<\/th><th scope="col">Total<\/th>/);
    expect(html).toMatch(/<th scope="row">Tue, Nov 17<\/th><td>45<\/td><td>90<\/td><td>135<\/td>/);
    expect(html).toMatch(/<th scope="row">Mon, Nov 16<\/th><td>0<\/td><td>0<\/td><td>0<\/td>/);
  });

  it("a day lists only the hours with screen time", () => {
    const day = {
      slots: ["00", "01", "07"],
      categories: [{ key: "E", name: "Education" }],
      rows: [
        { slot: "00", values: { E: 0 } },
        { slot: "01", values: { E: 0 } },
        { slot: "07", values: { E: 12 } },
      ],
    };
    const html = renderToString(
      <CategoryChartFigure svg={{ phone: "", wide: "" }} data={day} title="Today" period={{ filter: "day", from: "2026-11-16" }} />,
    );
    expect(html).toMatch(/<th scope="row">07:00–08:00<\/th><td>12<\/td><td>12<\/td>/);
    expect(html).not.toContain("00:00–01:00");
    expect(html).toContain("Hours without screen time are left out.");
  });
});
