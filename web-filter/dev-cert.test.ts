import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { devCertificate, resolverCertificate } from "./dev-cert";
import { webFilterSettings } from "./settings";

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
    rmSync(path.dirname(dir), { recursive: true, force: true });
  });
});
