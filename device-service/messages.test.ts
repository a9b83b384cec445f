import { describe, expect, it } from "vitest";
import { categorySaved } from "./messages";

describe("categorySaved: what a save on /category changed", () => {
  const off = (minutes: number) => ({ enabled: false, minutes });
  const on = (minutes: number) => ({ enabled: true, minutes });
  it.each([
    // A disabled category's limit turned on or off: it stays disabled; the limit counts once it is enabled.
    [
      off(0),
      off(60),
      "Games stays disabled on Ada's phone, so its apps stay blocked; it will have a daily limit of 60 minutes once you enable it.",
    ],
    [off(60), off(0), "Games stays disabled on Ada's phone, so its apps stay blocked; it will have no daily limit once you enable it."],
    [
      off(60),
      off(30),
      "Games stays disabled on Ada's phone, so its apps stay blocked; it will have a daily limit of 30 minutes once you enable it.",
    ],
    [off(30), off(30), "Games stays disabled on Ada's phone; its apps stay blocked."],
    // The switch itself.
    [on(30), off(30), "Games is disabled on Ada's phone: its apps are blocked."],
    [off(30), on(30), "Games is enabled on Ada's phone with a daily limit of 30 minutes."],
    [off(0), on(0), "Games is enabled on Ada's phone with no daily limit."],
    // An enabled category's limit.
    [on(0), on(45), "Games has a daily limit of 45 minutes on Ada's phone."],
    [on(45), on(0), "Games has no daily limit on Ada's phone."],
  ] as const)("%o → %o", (before, after, want) => expect(categorySaved("Games", "Ada", before, after)).toBe(want));
});
