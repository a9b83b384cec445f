import { describe, expect, it } from "vitest";
import {
  ICON_INITIALS,
  ICON_PACKAGE,
  appIcon,
  appIconHref,
  generatedIcon,
  generatedIconHref,
  iconFromBase,
  iconSvg,
  initials,
} from "./app-icon";

describe("app icons (no network)", () => {
  it.each([
    ["Khan Academy", "KA"],
    ["Duolingo: Language Lessons", "DL"],
    ["ZEDGE™ Wallpapers", "ZW"],
    ["élan", "É"],
    ["!!!", "?"],
  ])("initials of %s are %s", (title, want) => expect(initials(title)).toBe(want));

  it("draws a stable SVG data URL per package, and uses a configured http(s) icon when there is one", () => {
    const a = generatedIcon("com.duolingo", "Duolingo");
    expect(a.startsWith("data:image/svg+xml")).toBe(true);
    expect(decodeURIComponent(a)).toContain(">D</text>");
    expect(generatedIcon("com.duolingo", "Duolingo")).toBe(a);
    expect(appIcon("com.duolingo", "Duolingo", "https://cdn.example/duo.png")).toBe("https://cdn.example/duo.png");
    expect(appIcon("com.duolingo", "Duolingo", "javascript:alert(1)")).toBe(a);
    expect(appIcon("com.duolingo", "Duolingo", null)).toBe(a);
  });

  it("uses the configured icon base (CATALOG_ICON_BASE_URL) when set, the listing's own icon first, generated when empty", () => {
    const base = "https://icons.example/play/";
    expect(appIcon("com.duolingo", "Duolingo", null, base)).toBe("https://icons.example/play/com.duolingo.png");
    expect(appIcon("com.duolingo", "Duolingo", null, "https://cdn.example/i/{package}/96.webp")).toBe(
      "https://cdn.example/i/com.duolingo/96.webp",
    );
    expect(appIcon("com.duolingo", "Duolingo", "https://cdn.example/duo.png", base)).toBe("https://cdn.example/duo.png");
    expect(appIcon("com.duolingo", "Duolingo", null, "")).toBe(generatedIcon("com.duolingo", "Duolingo"));
    expect(appIcon("com.duolingo", "Duolingo", null, "javascript:alert(1)")).toBe(generatedIcon("com.duolingo", "Duolingo"));
    expect(iconFromBase("https://x.example", "a b")).toBe("https://x.example/a%20b.png");
  });

  it("links pages to the icon route for the same drawn picture; a real icon or base wins there too", () => {
    expect(generatedIconHref("com.duolingo", "Duolingo: Language Lessons")).toBe("/resources/app-icon?p=com.duolingo&t=DL");
    expect(generatedIconHref("com.example", "élan")).toBe(`/resources/app-icon?p=com.example&t=${encodeURIComponent("É")}`);
    expect(generatedIcon("com.duolingo", "Duolingo: Language Lessons")).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(iconSvg("com.duolingo", "DL"))}`,
    );
    expect(appIconHref("com.duolingo", "Duolingo", "https://cdn.example/duo.png")).toBe("https://cdn.example/duo.png");
    expect(appIconHref("com.duolingo", "Duolingo", null, "https://icons.example/play")).toBe("https://icons.example/play/com.duolingo.png");
    expect(appIconHref("com.duolingo", "Duolingo", "javascript:alert(1)")).toBe("/resources/app-icon?p=com.duolingo&t=D");
    // Not a package name: the picture stays inline rather than link to an address the route refuses.
    expect(appIconHref("not a package", "X", null)).toBe(generatedIcon("not a package", "X"));
    for (const t of ["KA", "É", "?", "SS", "12"]) expect(ICON_INITIALS.test(t)).toBe(true);
    for (const t of ["", "<b>", "A B", "ABCDE", "'"]) expect(ICON_INITIALS.test(t)).toBe(false);
    expect(ICON_PACKAGE.test("com.duolingo")).toBe(true);
    expect(ICON_PACKAGE.test("../x/y")).toBe(false);
  });
});
