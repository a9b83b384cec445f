import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Switch } from "./Switch";
import { readSwitch } from "./switch-form";

/** The one control's attributes, read from the server markup (what a browser without JavaScript gets). */
function control(html: string) {
  const tag = /^<button([^>]*)>/.exec(html)?.[1] ?? "";
  const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null;
  return { tag, attr, text: html.replace(/<[^>]*>/g, "") };
}

describe("Switch: a submit toggle button that works without JavaScript", () => {
  it("is a submit button with aria-pressed (no role=switch, which ARIA does not allow on a submit control)", () => {
    const on = control(renderToStaticMarkup(<Switch checked label="Daily limit" onToggle={() => {}} />));
    expect(on.attr("type")).toBe("submit");
    expect(on.attr("aria-pressed")).toBe("true");
    expect(on.attr("role")).toBeNull();
    expect(on.attr("class")).toBe("switch");
    expect(on.text).toBe("Daily limit"); // its accessible name: the track is aria-hidden and has no text
    const off = control(renderToStaticMarkup(<Switch checked={false} big label="Turn sleep mode on" disabled />));
    expect(off.attr("aria-pressed")).toBe("false");
    expect(off.attr("class")).toBe("switch big");
    expect(off.tag).toContain(" disabled");
  });

  it("with onToggle posts <name>:<the state to go to>, read by readSwitch; without it posts no name", () => {
    for (const [checked, next] of [
      [true, "off"],
      [false, "on"],
    ] as const) {
      const c = control(renderToStaticMarkup(<Switch checked={checked} name="fullAccess" label="Allow" onToggle={() => {}} />));
      const form = new FormData();
      form.set(c.attr("name")!, c.attr("value")!);
      expect(c.attr("value")).toBe("Allow");
      expect(readSwitch(form, "fullAccess")).toBe(next);
    }
    expect(control(renderToStaticMarkup(<Switch checked label="Show map" />)).attr("name")).toBeNull();
  });
});
