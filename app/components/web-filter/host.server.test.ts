import { describe, expect, it } from "vitest";
import { parseAllowedHost } from "./host.server";

describe("parseAllowedHost", () => {
  it.each([
    ["example.com", "example.com"],
    ["  WWW.Example.COM. ", "www.example.com"],
    ["https://www.khanacademy.org/math?x=1", "www.khanacademy.org"],
    ["http://school.example.org:8080/", "school.example.org"],
    ["bücher.de", "xn--bcher-kva.de"],
  ])("%s → %s", (raw, host) => expect(parseAllowedHost(raw)).toEqual({ host }));

  it.each([
    ["", "Type a site to allow, e.g. example.com."],
    ["192.168.1.1", "Type the site's name, not an IP address (e.g. example.com)."],
    ["printer.local", "“printer.local” is a name on a home network, not a website: type a site such as example.com."],
    ["wikipedia", "“wikipedia” needs its ending too, e.g. wikipedia.com."],
    ["not a site!", "“not a site!” is not a website name: type a site such as example.com."],
    ["-bad-.com", "“-bad-.com” is not a website name: type a site such as example.com."],
  ])("%j is refused", (raw, error) => expect(parseAllowedHost(raw)).toEqual({ error }));
});
