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

/** The drawn icon's SVG: a gradient of the package's colour, and the initials (letters and digits only). */
export function iconSvg(packageName: string, letters: string): string {
  const h = hash(packageName);
  const bg = PALETTE[h % PALETTE.length];
  const angle = (h >>> 8) % 360;
  const text = letters.replace(/[<>&"']/g, "");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<defs><linearGradient id="g" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${bg}"/><stop offset="1" stop-color="${bg}" stop-opacity=".7"/></linearGradient></defs>` +
    `<rect width="96" height="96" rx="22" fill="url(#g)"/>` +
    `<text x="48" y="60" font-family="system-ui,sans-serif" font-size="${text.length > 1 ? 34 : 42}" font-weight="700" fill="#fff" text-anchor="middle">${text}</text></svg>`
  );
}

/** The drawn icon as a data: URL (kept with a master application, which travels without our server). */
export function generatedIcon(packageName: string, title: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(iconSvg(packageName, initials(title)))}`;
}

/** Where pages load drawn icons from (app/routes/resources.app-icon.tsx): the same picture as `generatedIcon`. */
export const ICON_ROUTE = "/resources/app-icon";

/**
 * The drawn icon as an address on our own server: a page with sixty store items carries sixty ~60-byte links
 * instead of sixty ~750-byte data: URLs twice over (in the HTML and in the page's data), and the browser keeps each
 * picture for good (the address names everything it is drawn from).
 */
export function generatedIconHref(packageName: string, title: string): string {
  // A name the route would refuse (not a package name) keeps its picture inline.
  if (!ICON_PACKAGE.test(packageName)) return generatedIcon(packageName, title);
  return `${ICON_ROUTE}?${new URLSearchParams({ p: packageName, t: initials(title) })}`;
}

/** What the icon route accepts: a package name (core/values), and initials as `initials()` makes them. */
export const ICON_PACKAGE = /^[A-Za-z0-9._-]{1,255}$/;
export const ICON_INITIALS = /^(?:[\p{L}\p{N}]{1,4}|\?)$/u;

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
  return realIcon(configured, base, packageName) ?? generatedIcon(packageName, title);
}

/** The same choice for pages of our own: a drawn icon is linked (`generatedIconHref`), not inlined. */
export function appIconHref(packageName: string, title: string, configured: string | null | undefined, base = ""): string {
  return realIcon(configured, base, packageName) ?? generatedIconHref(packageName, title);
}

function realIcon(configured: string | null | undefined, base: string, packageName: string): string | null {
  if (configured && HTTP.test(configured)) return configured;
  if (base && HTTP.test(base)) return iconFromBase(base, packageName);
  return null;
}
