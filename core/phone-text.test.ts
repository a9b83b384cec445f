import { describe, expect, it } from "vitest";
import { cleanPhoneText, cleanPhoneValue } from "./phone-text";

describe("phone text loses bidi controls and control characters", () => {
  it.each([
    ["an override spoofing an address", "https://evil.example/\u202Emoc.elgoog", "https://evil.example/moc.elgoog"],
    ["embeddings and pop", "a\u202Ab\u202Bc\u202Cd\u202De", "abcde"],
    ["isolates", "\u2066x\u2067y\u2068z\u2069", "xyz"],
    ["marks", "\u200Ea\u200Fb\u061Cc", "abc"],
    ["NUL", "safe\u0000.exe", "safe.exe"],
    ["other C0, DEL and C1 controls", "a\u0001b\u001Bc\rd\u007Fe\u0085f\u009Fg", "abcdefg"],
    ["tab and newline kept", "line one\n\tline two", "line one\n\tline two"],
    ["letters of every script kept", "Zoë 👋 مرحبا שלום 日本", "Zoë 👋 مرحبا שלום 日本"],
  ])("%s", (_name, text, want) => {
    expect(cleanPhoneText(text)).toBe(want);
  });

  it("cleans every string of a value, keys too, and leaves numbers, booleans and null alone", () => {
    expect(cleanPhoneValue({ "k\u202E": ["a\u0000", 1], n: null, b: true, nested: { url: "x\u202Ey" } })).toEqual({
      k: ["a", 1],
      n: null,
      b: true,
      nested: { url: "xy" },
    });
  });

  it("a __proto__ key stays a plain key", () => {
    const v = cleanPhoneValue(JSON.parse('{"__proto__": {"polluted": "yes"}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
