import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { generatedIconHref } from "#core/app-icon";
import { AppIcon } from "./AppIcon";

const src = (html: string) => /src="([^"]*)"/.exec(html)?.[1].replace(/&amp;/g, "&");

describe("AppIcon: an app's icon drawn one way on every page", () => {
  it("draws the initials when the store has no icon, from the list's href or from nothing alike", () => {
    const drawn = generatedIconHref("com.duolingo", "Duolingo: Language Lessons");
    expect(src(renderToStaticMarkup(<AppIcon packageName="com.duolingo" title="Duolingo: Language Lessons" icon={null} />))).toBe(drawn);
    // A list that already resolved the drawn icon (store, installs card) gets the very same picture.
    expect(src(renderToStaticMarkup(<AppIcon packageName="com.duolingo" title="Duolingo: Language Lessons" icon={drawn} />))).toBe(drawn);
  });

  it("shows the store's own icon when there is one, as a decorative image of the asked size", () => {
    const html = renderToStaticMarkup(
      <AppIcon packageName="com.duolingo" title="Duolingo" icon="https://icons.example/duo.png" size={48} />,
    );
    expect(src(html)).toBe("https://icons.example/duo.png");
    expect(html).toContain('alt=""');
    expect(html).toContain('width="48"');
    expect(html).toContain('class="app-icon"');
  });
});
