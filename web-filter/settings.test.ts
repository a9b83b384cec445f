import { describe, expect, it } from "vitest";
import { webFilterSettings } from "./settings";

describe("the web filter's settings", () => {
  it("listens for DoT on 8853 in development and 853 in production", () => {
    expect(webFilterSettings({}).DNS_DOT_PORT).toBe(8853);
    const production = { NODE_ENV: "production", DNS_TLS_CERT: "/c.pem", DNS_TLS_KEY: "/k.pem" };
    expect(webFilterSettings(production).DNS_DOT_PORT).toBe(853);
  });

  it("requires a certificate in production, and both files or neither", () => {
    expect(() => webFilterSettings({ NODE_ENV: "production" })).toThrow(/DNS_TLS_CERT and DNS_TLS_KEY/);
    expect(() => webFilterSettings({ DNS_TLS_CERT: "/c.pem" })).toThrow(/together/);
    // `npm start` and the test servers: the production build with the development certificate; or the filter off.
    expect(webFilterSettings({ NODE_ENV: "production", DNS_DEV_CERT: "true" }).DNS_DEV_CERT).toBe(true);
    expect(webFilterSettings({ NODE_ENV: "production", WEB_FILTER: "false" }).WEB_FILTER).toBe(false);
    expect(webFilterSettings({}).WEB_FILTER).toBe(true);
  });

  it("refuses a filter domain that is not a domain name", () => {
    expect(() => webFilterSettings({ DNS_FILTER_DOMAIN: "dns example" })).toThrow(/DNS_FILTER_DOMAIN/);
    expect(webFilterSettings({ DNS_FILTER_DOMAIN: "DNS.Example.org" }).DNS_FILTER_DOMAIN).toBe("dns.example.org");
  });
});
