import { describe, expect, it } from "vitest";
import { blockedBy, isBlocked, normaliseUrlEntry, openHref } from "./urls";

describe("normaliseUrlEntry: one spelling per address", () => {
  it.each([
    ["example.com", "example.com"],
    ["https://Example.com/", "example.com"],
    ["HTTP://WWW.Example.COM/Page", "www.example.com/Page"],
    ["example.com.", "example.com"],
    ["https://example.com.:443/a/", "example.com/a"],
    ["http://example.com:80/a", "example.com/a"],
    ["https://example.com:80/a", "example.com:80/a"],
    ["http://example.com:8080", "example.com:8080"],
    ["  example.com/path/  ", "example.com/path"],
    ["example.com/a?q=1#top", "example.com/a"],
    ["https://user:pw@example.com/x", "example.com/x"],
    ["bücher.de", "xn--bcher-kva.de"],
    ["https://BÜCHER.de/Straße", "xn--bcher-kva.de/Stra%C3%9Fe"],
    ["ftp://x.test", "x.test"],
    ["//example.com/a", "example.com/a"],
    ["127.0.0.1:3000/admin", "127.0.0.1:3000/admin"],
    ["example.com//a///", "example.com/a"],
  ])("%s → %s", (input, want) => {
    expect(normaliseUrlEntry(input)).toEqual({ ok: true, url: want });
  });

  it.each([
    ["", "Please enter a web address."],
    ["   ", "Please enter a web address."],
    ["javascript:alert(1)", "Please enter a web address such as example.com or https://example.com/page."],
    ["mailto:kid@example.com", "Please enter a web address such as example.com or https://example.com/page."],
    ["http://", "Please enter a web address such as example.com or https://example.com/page."],
    ["exa mple.com", "Please enter a web address such as example.com or https://example.com/page."],
    ["localhost", "Please enter a full web address with a domain, such as example.com."],
    ["https://example.com:99999/", "Please enter a web address such as example.com or https://example.com/page."],
    ["x".repeat(2049), "A web address can be at most 2,048 characters long."],
  ])("%j is refused with a clear message", (input, message) => {
    expect(normaliseUrlEntry(input)).toEqual({ ok: false, message });
  });
});

describe("blockedBy: what a blocked entry covers", () => {
  const rules = ["example.com", "news.test/sport", "a.test:8080"];
  it.each([
    ["example.com", "example.com"],
    ["https://www.example.com/page", "example.com"],
    ["http://deep.sub.example.com/", "example.com"],
    ["EXAMPLE.COM./x?y=1", "example.com"],
    ["notexample.com", null],
    ["example.com.evil.test", null],
    ["news.test/sport", "news.test/sport"],
    ["news.test/sport/football", "news.test/sport"],
    ["https://www.news.test/sport", "news.test/sport"],
    ["news.test/sports", null],
    ["news.test/", null],
    ["news.test/weather", null],
    ["a.test:8080/x", "a.test:8080"],
    ["a.test/x", null],
    ["not a url", null],
  ])("%s → %s", (visit, want) => {
    expect(blockedBy(rules, visit)).toBe(want);
    expect(isBlocked(rules, visit)).toBe(want !== null);
  });

  it("rules are normalised too (a rule typed with a scheme or capitals still matches)", () => {
    expect(blockedBy(["HTTPS://Example.com/"], "www.example.com/page")).toBe("example.com");
    expect(blockedBy(["bücher.de"], "https://www.xn--bcher-kva.de/")).toBe("xn--bcher-kva.de");
  });
});

describe("openHref: URLs without a scheme open with http added", () => {
  it.each([
    ["example.com/page", "http://example.com/page"],
    ["https://example.com", "https://example.com"],
    ["HTTP://x.test", "HTTP://x.test"],
    ["javascript:alert(1)", "http://javascript:alert(1)"],
  ])("%s → %s", (url, want) => expect(openHref(url)).toBe(want));
});
