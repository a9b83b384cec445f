import { describe, expect, it } from "vitest";
import { INSTALL_FAILURE_REASONS } from "#device-service/socket/messages";
import {
  exclusiveFilterChanges,
  failureExplanation,
  installButton,
  parseStoreFilter,
  priceText,
  resultLabel,
  resultsPaging,
  resultsShown,
} from "./store";

const KIDS = "com.kidsportal.kidsapp";
const qs = (s: string) => new URLSearchParams(s);

describe("search results a page at a time", () => {
  it.each([
    ["", 20],
    ["shown=20", 20],
    ["shown=21", 40],
    ["shown=60", 60],
    ["shown=0", 20],
    ["shown=abc", 20],
    ["shown=-40", 20],
    ["shown=100000", 400],
    ["shown=1e9", 20],
    ["shown=40.5", 20],
  ])("%s shows %d", (q, n) => expect(resultsShown(qs(q))).toBe(n));

  it("Show More while the database has more and the list is not at its longest; Show Less past the first page", () => {
    expect(resultsPaging(20, true)).toEqual({ showMore: 40, showLess: false });
    expect(resultsPaging(20, false)).toEqual({ showMore: null, showLess: false });
    expect(resultsPaging(60, false)).toEqual({ showMore: null, showLess: true });
    expect(resultsPaging(400, true)).toEqual({ showMore: null, showLess: true });
  });
});

describe("store filters are mutually exclusive (spec 2 §4)", () => {
  it.each([
    ["playstoreText=khan", { kind: "text", text: "khan" }],
    ["playstoreText=%20%20&ageFilter=AGE_RANGE2", { kind: "age", age: "AGE_RANGE2" }],
    ["filterCategory=EDUCATION", { kind: "category", category: "EDUCATION" }],
    ["filterCategory=drop%20table", { kind: "none" }],
    ["expertRatingFilter=16%2B", { kind: "expert", rating: "16+" }],
    ["expertRatingFilter=BEST", { kind: "none" }],
    ["ageFilter=AGE_RANGE9", { kind: "none" }],
    ["playstoreText=khan&filterCategory=EDUCATION&ageFilter=AGE_RANGE1", { kind: "text", text: "khan" }],
  ])("%s → %j", (q, want) => expect(parseStoreFilter(qs(q))).toEqual(want));

  it("applying one clears the others", () => {
    expect(exclusiveFilterChanges({ kind: "category", category: "EDUCATION" })).toEqual({
      playstoreText: null,
      ageFilter: null,
      filterCategory: "EDUCATION",
      expertRatingFilter: null,
    });
    expect(exclusiveFilterChanges({ kind: "none" })).toEqual({
      playstoreText: null,
      ageFilter: null,
      filterCategory: null,
      expertRatingFilter: null,
    });
  });

  it.each([
    [{ kind: "text", text: "khan" }, "Show result for 'khan'"],
    [{ kind: "age", age: "AGE_RANGE1" }, "Show result for up to 5"],
    [{ kind: "age", age: "AGE_RANGE2" }, "Show result for 6-8"],
    [{ kind: "age", age: "AGE_RANGE3" }, "Show result for 9-12"],
    [{ kind: "age", age: "AGE_RANGE_ALL" }, "Show result for all ages up to 12"],
    [{ kind: "category", category: "EDUCATION" }, "Show result for Education"],
    [{ kind: "expert", rating: "EXPERT_RECOMMENDATION" }, "Show result for Expert Recommended"],
    [{ kind: "none" }, null],
  ] as const)("label of %j", (f, want) => expect(resultLabel(f, "Education")).toBe(want));
});

describe("install button (spec 2 §4)", () => {
  const app = { appId: "a.b", isAppInstalled: false, isSystemApp: false, free: true, price: 0 };
  it.each([
    [app, "install"],
    [{ ...app, free: false, price: 3.99 }, "coming-soon"],
    [{ ...app, free: false, price: 3.99, isAppInstalled: true }, "uninstall"],
    [{ ...app, isAppInstalled: true }, "uninstall"],
    [{ ...app, isAppInstalled: true, isSystemApp: true }, "system-app"],
    [{ ...app, appId: KIDS, isAppInstalled: true }, "kids-app"],
    [{ ...app, installState: "installing" }, "installing"],
    [{ ...app, installState: "failed", failureReason: "IN_PROGRESS" }, "installing"],
    [{ ...app, installState: "failed", failureReason: "NOT_FOUND" }, "install"],
  ])("%j → %s", (a, want) => expect(installButton(a, KIDS)).toBe(want));

  it.each([
    [0, true, "Free"],
    [3.99, false, "£3.99"],
    [0, false, "Free"],
  ])("price %d (free %s) → %s", (p, free, want) => expect(priceText(p, free)).toBe(want));
});

describe("installation failure reasons (spec 2 §8)", () => {
  it.each(INSTALL_FAILURE_REASONS)("%s is explained in plain words: what happened, what next, what to do", (reason) => {
    const e = failureExplanation(reason)!;
    expect(e.title.length).toBeGreaterThan(5);
    for (const s of [e.what, e.next, e.todo]) expect(s).toMatch(/^[A-Z].+\.$/);
    expect(`${e.title} ${e.what}`).not.toMatch(/[A-Z]{2,}_[A-Z]/); // never the raw code
  });
  it("says which reasons resume on their own", () => {
    expect(failureExplanation("INSTALLATION_FAILURE_REASON_UNKNOWN")!.next).toMatch(/try again automatically/);
    expect(failureExplanation("NETWORK_ERROR_UNRELIABLE_CONNECTION")!.next).toMatch(/back online/);
    expect(failureExplanation("INSUFFICIENT_STORAGE")!.next).toMatch(/free space/);
    expect(failureExplanation("NOT_FOUND")!.next).toBe("We do not try again.");
    expect(failureExplanation("SOMETHING")).toBeNull();
  });
});
