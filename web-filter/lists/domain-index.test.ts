import { describe, expect, it } from "vitest";
import { DomainIndex, MAX_CATEGORIES } from "./domain-index";

function index(): DomainIndex {
  const i = new DomainIndex(["adult", "gambling", "social-networks"]);
  i.add("example.com", "gambling");
  i.add("sub.social.org", "social-networks");
  i.add("social.org", "adult");
  i.add("t.co", "social-networks");
  return i;
}

describe("DomainIndex.lookupCategories", () => {
  it.each([
    ["example.com", ["gambling"]],
    ["www.example.com", ["gambling"]],
    ["a.b.example.com", ["gambling"]],
    ["badexample.com", []],
    ["example.com.evil.net", []],
    ["xample.com", []],
    ["com", []],
    ["social.org", ["adult"]],
    ["x.social.org", ["adult"]],
    ["sub.social.org", ["adult", "social-networks"]],
    ["deep.sub.social.org", ["adult", "social-networks"]],
    ["notsub.social.org", ["adult"]],
    ["t.co", ["social-networks"]],
    ["at.co", []],
    ["bücher.example.com", []],
    ["", []],
  ])("%j → %j", (name, expected) => {
    expect(index().lookupCategories(name)).toEqual(expected);
  });
});

describe("DomainIndex", () => {
  it("counts each domain once per category, and a domain in two categories in both", () => {
    const i = index();
    i.add("example.com", "gambling");
    i.add("example.com", "adult");
    expect(i.size).toBe(4);
    expect(i.countsByCategory()).toEqual({ adult: 2, gambling: 1, "social-networks": 2 });
    expect(i.lookupCategories("www.example.com")).toEqual(["adult", "gambling"]);
  });

  it("finds every one of 200,000 domains after growing and compacting, and none of their look-alikes", () => {
    const i = new DomainIndex(["a", "b"]);
    const names = Array.from({ length: 200_000 }, (_, n) => `site${n}.example${n % 97}.net`);
    names.forEach((d, n) => i.add(d, n % 2 ? "b" : "a"));
    i.compact();
    expect(i.size).toBe(200_000);
    names.forEach((d, n) => {
      if (i.maskOf(`www.${d}`) !== (n % 2 ? 2 : 1)) throw new Error(`${d} not found`);
      if (i.maskOf(`x${d}`) !== 0) throw new Error(`x${d} found`);
    });
    expect(i.countsByCategory()).toEqual({ a: 100_000, b: 100_000 });
  });

  it("refuses an unknown category and more categories than bits", () => {
    expect(() => index().add("x.com", "news")).toThrow(/unknown category/);
    expect(() => new DomainIndex(Array.from({ length: MAX_CATEGORIES + 1 }, (_, n) => `c${n}`))).toThrow(/at most 32/);
  });
});
