import { describe, expect, it } from "vitest";
import { perRequest } from "./request-memo.server";

describe("perRequest", () => {
  it("computes once per GET request and never shares between requests", async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const a = new Request("http://x/kids-device");
    const b = new Request("http://x/kids-device");
    expect(await perRequest(a, "k", compute)).toBe(1);
    expect(await perRequest(a, "k", compute)).toBe(1);
    expect(await perRequest(b, "k", compute)).toBe(2);
    expect(await perRequest(a, "other", compute)).toBe(3);
  });

  it("never caches for a POST: loaders after an action see fresh data", async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const post = new Request("http://x/account", { method: "POST" });
    expect(await perRequest(post, "k", compute)).toBe(1);
    expect(await perRequest(post, "k", compute)).toBe(2);
  });
});
