/** "[##########··········] 12/24 kids · 30 reports built" (terminal) or "12/24 kids, 30 reports built" (log). */
export function progressLine(done: number, total: number, built: number, bar: boolean, width = 20): string {
  const text = `${done}/${total} kids · ${built} report${built === 1 ? "" : "s"} built`;
  if (!bar) return text.replace(" · ", ", ");
  const filled = total ? Math.round((done / total) * width) : width;
  return `[${"#".repeat(filled)}${"·".repeat(width - filled)}] ${text}`;
}
