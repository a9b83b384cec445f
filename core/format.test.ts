import { describe, expect, it } from "vitest";
import { formatDateTime, formatDayLabel, formatMediumDateTime } from "./format";

describe("date formats (en-US, UTC)", () => {
  it.each([
    ["2026-11-21T23:31:00.000Z", "Nov 21, 2026, 11:31 PM UTC"],
    ["2026-01-02T00:05:00.000Z", "Jan 2, 2026, 12:05 AM UTC"],
    [null, "—"],
    [undefined, "—"],
  ])("formatDateTime(%s) = %s", (iso, expected) => {
    expect(formatDateTime(iso)).toBe(expected);
  });
  it("labels days and medium date-times", () => {
    expect(formatDayLabel(new Date("2026-11-21T00:00:00Z"))).toBe("Sat, Nov 21, 2026");
    expect(formatMediumDateTime("2026-11-21T23:31:00.000Z")).toBe("Nov 21, 2026, 11:31 PM UTC");
  });
});
