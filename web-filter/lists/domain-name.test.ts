import { describe, expect, it } from "vitest";
import { lookupName, normaliseDomain, suffixesOf } from "./domain-name";

describe("normaliseDomain", () => {
  it.each([
    ["example.com", { domain: "example.com" }],
    ["Ads.Example.COM", { domain: "ads.example.com" }],
    ["example.com.", { domain: "example.com" }],
    ["  example.com  ", { domain: "example.com" }],
    ["*.tracker.example.net", { domain: "tracker.example.net" }],
    ["bücher.de", { domain: "xn--bcher-kva.de" }],
    ["BÜCHER.de", { domain: "xn--bcher-kva.de" }],
    ["例え.jp", { domain: "xn--r8jz45g.jp" }],
    ["xn--bcher-kva.de", { domain: "xn--bcher-kva.de" }],
    ["under_score.example.com", { domain: "under_score.example.com" }],
    ["a-b.co.uk", { domain: "a-b.co.uk" }],
    ["0.0.0.0", { rejected: "IP address" }],
    ["192.168.1.1", { rejected: "IP address" }],
    ["::1", { rejected: "IP address" }],
    ["localhost", { rejected: "local name" }],
    ["printer.local", { rejected: "local name" }],
    ["broadcasthost", { rejected: "local name" }],
    ["com", { rejected: "single label" }],
    ["example..com", { rejected: "invalid domain" }],
    ["-bad.example.com", { rejected: "invalid domain" }],
    ["bad-.example.com", { rejected: "invalid domain" }],
    ["exa mple.com", { rejected: "invalid domain" }],
    ["example.com/path", { rejected: "invalid domain" }],
    ["bü/cher.de", { rejected: "invalid domain" }],
    ["user@example.com", { rejected: "invalid domain" }],
    ["example.123", { rejected: "invalid domain" }],
    [`${"a".repeat(64)}.com`, { rejected: "invalid domain" }],
    [`${"a.".repeat(127)}com`, { rejected: "invalid domain" }],
    ["", { rejected: "invalid domain" }],
  ])("%j → %j", (raw, expected) => {
    expect(normaliseDomain(raw)).toEqual(expected);
  });
});

describe("suffixesOf", () => {
  it.each([
    ["a.b.example.com", ["a.b.example.com", "b.example.com", "example.com", "com"]],
    ["example.com", ["example.com", "com"]],
    ["badexample.com", ["badexample.com", "com"]],
    ["com", ["com"]],
  ])("%s → whole labels only", (name, expected) => {
    expect(suffixesOf(name)).toEqual(expected);
  });
});

describe("lookupName", () => {
  it.each([
    ["WWW.Example.com.", "www.example.com"],
    ["example.com", "example.com"],
  ])("%s → %s", (name, expected) => {
    expect(lookupName(name)).toBe(expected);
  });
});
