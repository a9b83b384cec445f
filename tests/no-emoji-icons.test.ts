import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Icons come from one SVG set (Lucide, app/components/dashboard/icons.tsx; issue 53 item 4): no emoji and no
 * symbol characters standing in for icons (☰ ◉ × ★ ← › 🔒 …), which show as empty boxes where the font lacks them
 * and read oddly aloud. The check reads what the app puts on a page (JSX text, strings and templates in app/),
 * not comments. The spec's own texts contain none of these characters, so nothing is allowed.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Emoji, arrows, technical and geometric shapes, misc symbols, dingbats, and the few glyphs once used as icons. */
export const ICON_GLYPH =
  /[\p{Extended_Pictographic}\p{Emoji_Presentation}\u{FE0F}\u2190-\u21FF\u2300-\u23FF\u25A0-\u27BF\u2900-\u297F\u2B00-\u2BFF\u00D7\u2039\u203A\u2212]/u;

/** The copyright, registered and trade marks are text (the footer's "©"), though Unicode lists them as emoji too. */
const TEXT_MARKS = /[\u00A9\u00AE\u2122](?!\u{FE0F})/gu;

export function hasIconGlyph(text: string): boolean {
  return ICON_GLYPH.test(text.replace(TEXT_MARKS, ""));
}

/** Every text a module may show: JSX text, string literals and template pieces (comments are not nodes). */
export function shownTexts(fileName: string, source: string): { text: string; line: number }[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: { text: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    if (
      ts.isJsxText(node) ||
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      found.push({ text: node.text, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const sources = () =>
  execFileSync("git", ["ls-files", "-co", "--exclude-standard", "app"], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$|\.testing\.tsx?$/.test(f));

describe("no emoji or symbol characters as icons in app/", () => {
  it("finds them where they are (the check can fail)", () => {
    const sample = `// ☰ in a comment is fine\nexport const A = () => <button aria-label="Close">×</button>;\nconst s = "🔒";\nconst t = \`← \${s}\`;`;
    expect(
      shownTexts("sample.tsx", sample)
        .filter((t) => hasIconGlyph(t.text))
        .map((t) => t.line),
    ).toEqual([2, 3, 4]);
    expect(hasIconGlyph("© 2026 Kids Portal · 2h 15m – “Fun” …")).toBe(false);
    expect(hasIconGlyph("©\u{FE0F}")).toBe(true);
  });

  it("shows none on any page", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((f) =>
      shownTexts(f, readFileSync(path.join(ROOT, f), "utf8"))
        .filter((t) => hasIconGlyph(t.text))
        .map((t) => `${f}:${t.line} ${JSON.stringify(t.text.trim())}`),
    );
    expect(hits).toEqual([]);
  });
});
