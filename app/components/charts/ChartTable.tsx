import { formatWeekdayDay } from "#core/format";
import type { CategoryChartData } from "./CategoryBarChart";

export interface ChartPeriod {
  filter: "day" | "week";
  /** The period's first day (ISO date): the week's slots are its seven days. */
  from: string;
}

const DAY_MS = 86_400_000;

function slotLabel(period: ChartPeriod, slot: string, index: number): string {
  if (period.filter === "day") return `${slot}:00–${String((Number.parseInt(slot, 10) + 1) % 24).padStart(2, "0")}:00`;
  return formatWeekdayDay(new Date(Date.parse(`${period.from}T00:00:00Z`) + index * DAY_MS));
}

/**
 * The chart's text alternative: its numbers as a visually hidden table (minutes per slot and category, and the
 * slot's total). A week lists its seven days with their dates; a day lists only the hours with screen time. The
 * table sits in a visually hidden block: a table itself ignores the 1 px box and would take its full height.
 */
export function ChartTable({ data, title, period }: { data: CategoryChartData; title: string; period: ChartPeriod }) {
  const rows = data.rows
    .map((r, i) => ({ label: slotLabel(period, r.slot, i), values: data.categories.map((c) => r.values[c.key] ?? 0) }))
    .map((r) => ({ ...r, total: r.values.reduce((a, b) => a + b, 0) }))
    .filter((r) => period.filter === "week" || r.total > 0);
  return (
    <div className="sr-only">
      <table data-testid="chart-table">
        <caption>{`${title}, in minutes`}</caption>
        <thead>
          <tr>
            <th scope="col">{period.filter === "day" ? "Hour" : "Day"}</th>
            {data.categories.map((c) => (
              <th scope="col" key={c.key}>
                {c.name}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              {r.values.map((v, i) => (
                <td key={data.categories[i].key}>{v}</td>
              ))}
              <td>{r.total}</td>
            </tr>
          ))}
          {rows.length === 0 ? (
            <tr>
              <td colSpan={data.categories.length + 2}>No screen time in this period.</td>
            </tr>
          ) : null}
        </tbody>
        {period.filter === "day" ? (
          <tfoot>
            <tr>
              <td colSpan={data.categories.length + 2}>Hours without screen time are left out.</td>
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}
