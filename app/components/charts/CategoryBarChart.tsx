import { Bar } from "@nivo/bar";
import { formatMinutes } from "~/utils/rules";

export const CHART_COLOURS = ["#0f766e", "#2563eb", "#d97706", "#9333ea", "#db2777", "#64748b"];

export interface CategoryChartData {
  slots: string[];
  categories: { key: string; name: string }[];
  rows: { slot: string; values: Record<string, number> }[];
}

/**
 * The stacked category chart: nivo's SVG bar chart at a fixed size, rendered on the server (no animation,
 * no interactivity), so it reads the same with JavaScript off. A legend and a data table follow in HTML.
 */
/** A y-axis step in whole quarter/half/full hours so ticks read 30m, 1h, 1h 30m… */
export function niceStep(maxMinutes: number, ticks = 4): number {
  const raw = Math.max(1, maxMinutes) / ticks;
  return [5, 10, 15, 30, 60, 90, 120, 180, 240, 360, 480, 720].find((s) => s >= raw) ?? Math.ceil(raw / 60) * 60;
}

/** Two fixed sizes (phone and wide screens); CSS shows the one that fits, both render on the server. */
export function CategoryBarChart({ data, title }: { data: CategoryChartData; title: string }) {
  return (
    <>
      <div className="chart-size-phone">
        <CategoryBarChartAt data={data} title={title} width={340} height={220} />
      </div>
      <div className="chart-size-wide">
        <CategoryBarChartAt data={data} title={title} width={640} height={260} />
      </div>
    </>
  );
}

function CategoryBarChartAt({ data, title, width, height }: { data: CategoryChartData; title: string; width: number; height: number }) {
  const keys = data.categories.map((c) => c.key);
  const rows = data.rows.map((r) => ({ slot: r.slot, ...r.values }));
  const maxTotal = Math.max(0, ...data.rows.map((r) => Object.values(r.values).reduce((a, b) => a + b, 0)));
  const isDay = data.slots.length === 24;
  const step = niceStep(maxTotal);
  const tickValues = Array.from({ length: Math.max(1, Math.ceil(Math.max(1, maxTotal) / step)) + 1 }, (_, i) => i * step);
  const colourOf = new Map(keys.map((k, i) => [k, CHART_COLOURS[i % CHART_COLOURS.length]]));
  return (
    <figure className="chart" aria-label={title}>
      <div className="chart-svg">
        <Bar
          data={rows}
          keys={keys}
          indexBy="slot"
          width={width}
          height={height}
          margin={{ top: 10, right: 8, bottom: 28, left: 56 }}
          padding={isDay ? 0.2 : 0.35}
          colors={(bar) => colourOf.get(String(bar.id)) ?? "#94a3b8"}
          enableLabel={false}
          animate={false}
          isInteractive={false}
          role="img"
          ariaLabel={title}
          valueScale={{ type: "linear", min: 0, max: tickValues[tickValues.length - 1] }}
          axisLeft={{ tickSize: 0, tickPadding: 6, tickValues, format: (v) => formatMinutes(Number(v)) }}
          axisBottom={{ tickSize: 0, tickPadding: 6, format: (v) => (isDay ? (Number(v) % 6 === 0 ? `${v}h` : "") : String(v)) }}
          gridYValues={tickValues}
          theme={{ text: { fontSize: 11, fill: "#4b5563" }, grid: { line: { stroke: "#e5e7eb" } } }}
        />
      </div>
      {keys.length ? (
        <figcaption>
          <ul className="chart-legend">
            {data.categories.map((c) => (
              <li key={c.key}>
                <span className="swatch" style={{ background: colourOf.get(c.key) }} aria-hidden="true" />
                {c.name}
              </li>
            ))}
          </ul>
        </figcaption>
      ) : (
        <figcaption className="muted">No screen time in this period.</figcaption>
      )}
    </figure>
  );
}
