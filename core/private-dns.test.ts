import { describe, expect, it } from "vitest";
import {
  filterHostname,
  privateDnsDomainFromEnv,
  privateDnsReport,
  privateDnsTransition,
  privateDnsVerdict,
  type PrivateDnsState,
} from "./private-dns";

const HOST = "abcdefghij0123456789.dns.test";
const filter: PrivateDnsState = { mode: "hostname", hostname: HOST };
const off: PrivateDnsState = { mode: "off" };
const auto: PrivateDnsState = { mode: "opportunistic" };
const other: PrivateDnsState = { mode: "hostname", hostname: "dns.google" };

describe("a phone's Private DNS against the kid's filter", () => {
  it.each([
    [HOST, null, "unknown"],
    [HOST, filter, "ok"],
    [HOST, { mode: "hostname", hostname: HOST.toUpperCase() }, "ok"],
    [HOST, off, "changed"],
    [HOST, auto, "changed"],
    [HOST, other, "changed"],
    [null, off, "ok"],
    [null, null, "unknown"],
  ] as const)("expected %s, reported %j → %s", (expected, state, verdict) => {
    expect(privateDnsVerdict(expected, state as PrivateDnsState | null)).toBe(verdict);
  });

  it.each([
    ["first report is the filter", HOST, null, filter, null],
    ["first report is off", HOST, null, off, "changed"],
    ["turned off", HOST, filter, off, "changed"],
    ["set to another server", HOST, filter, other, "changed"],
    ["set to Automatic", HOST, filter, auto, "changed"],
    ["off, then another server: still changed", HOST, off, other, null],
    ["off again", HOST, off, off, null],
    ["back to the filter", HOST, off, filter, "restored"],
    ["another server, then the filter", HOST, other, filter, "restored"],
    ["the filter again", HOST, filter, filter, null],
    ["nothing expected (filter off, or no live id)", null, filter, off, null],
  ] as const)("%s → %s", (_name, expected, previous, next, want) => {
    expect(privateDnsTransition(expected, previous as PrivateDnsState | null, next as PrivateDnsState)).toBe(want);
  });

  it("reads the phone's report: modes, the hostname normalised, bounded, required in mode hostname", () => {
    expect(privateDnsReport.parse({ mode: "hostname", hostname: " Dns.Example.ORG. " })).toEqual({
      mode: "hostname",
      hostname: "dns.example.org",
    });
    expect(privateDnsReport.parse({ mode: "off", hostname: "left.over" })).toEqual({ mode: "off" });
    expect(privateDnsReport.parse({ mode: "opportunistic" })).toEqual({ mode: "opportunistic" });
    for (const bad of [
      { mode: "hostname" },
      { mode: "hostname", hostname: "" },
      { mode: "hostname", hostname: "a".repeat(254) },
      { mode: "hostname", hostname: "evil host" },
      { mode: "hostname", hostname: "x\u202e.test" },
      { mode: "strict", hostname: HOST },
      {},
    ])
      expect(privateDnsReport.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it("names the hostname from the filter id and the domain; the domain from the environment, none when the filter is off", () => {
    expect(filterHostname("abc", "DNS.Example.org")).toBe("abc.dns.example.org");
    expect(privateDnsDomainFromEnv({})).toBe("dns.localhost");
    expect(privateDnsDomainFromEnv({ DNS_FILTER_DOMAIN: "DNS.Portal.test" })).toBe("dns.portal.test");
    expect(privateDnsDomainFromEnv({ WEB_FILTER: "false", DNS_FILTER_DOMAIN: "dns.portal.test" })).toBeUndefined();
    expect(privateDnsDomainFromEnv({ WEB_FILTER: "0" })).toBeUndefined();
    expect(privateDnsDomainFromEnv({ WEB_FILTER: "true" })).toBe("dns.localhost");
  });
});
