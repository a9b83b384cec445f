import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { devCertificate, resolverCertificate } from "./dev-cert";
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
  });

  it("refuses a filter domain that is not a domain name", () => {
    expect(() => webFilterSettings({ DNS_FILTER_DOMAIN: "dns example" })).toThrow(/DNS_FILTER_DOMAIN/);
    expect(webFilterSettings({ DNS_FILTER_DOMAIN: "DNS.Example.org" }).DNS_FILTER_DOMAIN).toBe("dns.example.org");
  });
});

describe("the development certificate", () => {
  it("is made once into DATA_DIR for *.<domain>, its key readable by the owner only, and read after", () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "web-filter-cert-")), "tls");
    const first = devCertificate(dir, "dns.localhost");
    const cert = new X509Certificate(first.cert);
    expect(cert.subjectAltName).toContain("DNS:*.dns.localhost");
    expect(cert.checkHost("kid1.dns.localhost")).toBe("*.dns.localhost");
    expect(cert.checkHost("kid1.example.org")).toBeUndefined();
    expect(statSync(path.join(dir, "dns.localhost.key")).mode & 0o077).toBe(0);
    expect(devCertificate(dir, "dns.localhost").cert.equals(first.cert)).toBe(true);
    const settings = webFilterSettings({ DATA_DIR: path.dirname(dir), DNS_FILTER_DOMAIN: "dns.localhost" });
    expect(resolverCertificate({ ...settings, devCertDir: dir }).cert.equals(readFileSync(path.join(dir, "dns.localhost.crt")))).toBe(true);
  });
});
