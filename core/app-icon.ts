/**
 * App icons without the network: a configured icon URL (catalog_apps.icon) when there is one, else one under the
 * configured icon base (CATALOG_ICON_BASE_URL) when that is set, otherwise an SVG drawn here from the title (its
 * initials on a colour chosen by the package name), as a data: URL. The same package always gets the same picture.
 */

const PALETTE = ["#0f766e", "#1d4ed8", "#7c3aed", "#b45309", "#be123c", "#15803d", "#0369a1", "#a21caf", "#4d7c0f", "#c2410c"];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** One or two letters from the title: the first letters of its first two words ("Khan Academy" → "KA"). */
export function initials(title: string): string {
  const words = title
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.slice(0, 2).map((w) => [...w][0]!.toUpperCase());
  return letters.join("") || "?";
}

export function generatedIcon(packageName: string, title: string): string {
  const h = hash(packageName);
  const bg = PALETTE[h % PALETTE.length];
  const angle = (h >>> 8) % 360;
  const text = initials(title).replace(/[<>&"']/g, "");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${bg}"/><stop offset="1" stop-color="${bg}" stop-opacity=".7"/></linearGradient></defs>` +
    `<rect width="96" height="96" rx="22" fill="url(#g)"/>` +
    `<text x="48" y="60" font-family="system-ui,sans-serif" font-size="${text.length > 1 ? 34 : 42}" font-weight="700" fill="#fff" text-anchor="middle">${text}</text></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * The icon's address under a configured base: `{package}` in the base is replaced by the package name, else the
 * name and `.png` are appended ("https://icons.example/play" → "https://icons.example/play/com.duolingo.png").
 */
export function iconFromBase(base: string, packageName: string): string {
  const name = encodeURIComponent(packageName);
  return base.includes("{package}") ? base.replaceAll("{package}", name) : `${base.replace(/\/+$/, "")}/${name}.png`;
}

const HTTP = /^https?:\/\//i;

/** The icon to show: the listing's own (an http(s) URL), else one under the configured base, else the generated one. */
export function appIcon(packageName: string, title: string, configured: string | null | undefined, base = ""): string {
  if (configured && HTTP.test(configured)) return configured;
  if (base && HTTP.test(base)) return iconFromBase(base, packageName);
  return generatedIcon(packageName, title);
}
