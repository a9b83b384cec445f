import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PrivateDns } from "./PrivateDns";

/** The Private DNS section as a browser without JavaScript gets it. */
describe("PrivateDns", () => {
  it("shows the phone's hostname in a read-only field to select, and Android's steps; Copy only with JavaScript", () => {
    const html = renderToStaticMarkup(<PrivateDns hostname="abcdefghij0123456789.dns.example.org" kidName="Mia" />);
    expect(html).toMatch(/<label for="dns-hostname">Private DNS hostname<\/label>/);
    const input = /<input id="dns-hostname"[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain('readonly=""');
    expect(input).toContain('value="abcdefghij0123456789.dns.example.org"');
    const text = html.replace(/<[^>]*>/g, "");
    expect(text).toContain("On the phone, open Settings, then Network &amp; internet, then Private DNS.");
    expect(text).toContain("Choose Private DNS provider hostname.");
    expect(text).toContain("Enter abcdefghij0123456789.dns.example.org.");
    expect(text).toContain("Tap Save.");
    expect(html).not.toContain(">Copy<");
    expect(html).not.toContain("switched off");
  });

  it("says the filter is switched off on this server when there is no hostname", () => {
    const text = renderToStaticMarkup(<PrivateDns hostname={null} kidName="Mia" />).replace(/<[^>]*>/g, "");
    expect(text).toContain("The web filter is switched off on this server.");
    expect(text).not.toContain("Private DNS hostname");
  });
});

describe("PrivateDns: what the phone reported", () => {
  const host = "abcdefghij0123456789.dns.example.org";
  it.each([
    [null, "unknown", "This phone has not reported its Private DNS yet."],
    [{ mode: "hostname", hostname: host }, "ok", "This phone uses this hostname: the web filter applies."],
    [{ mode: "off" }, "changed", "Private DNS is off on this phone: the web filter does not apply."],
    [{ mode: "opportunistic" }, "changed", "Private DNS on this phone is set to Automatic: the web filter does not apply."],
    [
      { mode: "hostname", hostname: "dns.google" },
      "changed",
      "Private DNS on this phone is set to another server: dns.google. The web filter does not apply.",
    ],
  ] as const)("%j → %s", (phone, state, text) => {
    const html = renderToStaticMarkup(<PrivateDns hostname={host} kidName="Mia" phone={phone} />);
    const line = /<p[^>]*data-testid="private-dns-phone"[^>]*>([^<]*)<\/p>/.exec(html);
    expect(line?.[0]).toContain(`data-state="${state}"`);
    expect(line?.[1]).toBe(text);
  });
});
