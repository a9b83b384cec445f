import { describe, expect, it } from "vitest";
import { parseListLine } from "./list-line";

describe("parseListLine", () => {
  it.each([
    // hosts files
    ["0.0.0.0 ads.example.com", ["ads.example.com"], []],
    ["127.0.0.1\tTracker.Example.NET.", ["tracker.example.net"], []],
    ["0.0.0.0 a.example.com b.example.com # two names", ["a.example.com", "b.example.com"], []],
    [":: ads.example.org", ["ads.example.org"], []],
    ["127.0.0.1 localhost", [], ["local name"]],
    ["::1 ip6-localhost ip6-loopback", [], ["local name", "local name"]],
    ["255.255.255.255 broadcasthost", [], ["local name"]],
    ["0.0.0.0 0.0.0.0", [], ["IP address"]],
    ["0.0.0.0 bücher.de", ["xn--bcher-kva.de"], []],
    // AdBlock-style lists
    ["||example.com^", ["example.com"], []],
    ["||Sub.Example.com^", ["sub.example.com"], []],
    ["||example.com^$important", [], ["AdBlock rule with options"]],
    ["@@||example.com^", [], ["AdBlock exception"]],
    ["example.com##.banner", [], ["other AdBlock rule"]],
    ["||example.com/ads/*", [], ["other AdBlock rule"]],
    ["/banner\\d+/", [], ["other AdBlock rule"]],
    ["|https://example.com/|", [], ["other AdBlock rule"]],
    ["||*.example.com^", [], ["other AdBlock rule"]],
    // plain lists
    ["example.com", ["example.com"], []],
    ["  Example.com.  ", ["example.com"], []],
    ["example.com # why", ["example.com"], []],
    ["not a domain", [], ["invalid domain"]],
    ["com", [], ["single label"]],
    // comments and blank lines: nothing, nothing skipped
    ["", [], []],
    ["   ", [], []],
    ["# hosts comment", [], []],
    ["! AdBlock comment", [], []],
    ["[Adblock Plus 2.0]", [], []],
  ])("%j", (line, domains, skipped) => {
    expect(parseListLine(line)).toEqual({ domains, skipped });
  });
});
