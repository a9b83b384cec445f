import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { perRequest } from "./request-memo.server";

const ctx = () => ({}) as AppLoadContext;

describe("perRequest", () => {
  it("computes once per request (one load context) and never shares between requests", async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const a = ctx();
    const b = ctx();
    // Remix gives each loader its own Request; the context is shared.
    expect(await perRequest({ request: new Request("http://x/kids-device"), context: a }, "k", compute)).toBe(1);
    expect(await perRequest({ request: new Request("http://x/kids-device"), context: a }, "k", compute)).toBe(1);
    expect(await perRequest({ request: new Request("http://x/kids-device"), context: b }, "k", compute)).toBe(2);
    expect(await perRequest({ request: new Request("http://x/kids-device"), context: a }, "other", compute)).toBe(3);
  });

  it("never caches for a POST: loaders after an action see fresh data", async () => {
    let calls = 0;
    const compute = async () => ++calls;
    const context = ctx();
    const post = new Request("http://x/account", { method: "POST" });
    expect(await perRequest({ request: post, context }, "k", compute)).toBe(1);
    expect(await perRequest({ request: post, context }, "k", compute)).toBe(2);
    expect(await perRequest({ request: new Request("http://x/account"), context }, "k", compute)).toBe(3);
  });
});
