import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface TlsPair {
  cert: Buffer;
  key: Buffer;
}

/** The resolver's certificate: DNS_TLS_CERT/DNS_TLS_KEY when set, else the development one (generated once). */
export function resolverCertificate(s: {
  DNS_TLS_CERT?: string;
  DNS_TLS_KEY?: string;
  DNS_FILTER_DOMAIN: string;
  devCertDir: string;
}): TlsPair {
  if (s.DNS_TLS_CERT && s.DNS_TLS_KEY) return { cert: readFileSync(s.DNS_TLS_CERT), key: readFileSync(s.DNS_TLS_KEY) };
  return devCertificate(s.devCertDir, s.DNS_FILTER_DOMAIN);
}

/**
 * A self-signed certificate for `*.<domain>`, `<domain>` and the loopback addresses (EC P-256, 825 days) in `dir`, made by the `openssl`
 * command the first time and read after: no npm package in the tree makes certificates, and node:crypto makes keys
 * but not X.509 certificates. Phones do not trust it (Android's Private DNS needs a real certificate: production
 * sets DNS_TLS_CERT/DNS_TLS_KEY); kdig and the tests do not check it.
 */
export function devCertificate(dir: string, domain: string): TlsPair {
  const certFile = path.join(dir, `${domain}.crt`);
  const keyFile = path.join(dir, `${domain}.key`);
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      execFileSync(
        "openssl",
        [
          ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "825"],
          ...["-keyout", keyFile, "-out", certFile, "-subj", `/CN=*.${domain}`],
          ...["-addext", `subjectAltName=DNS:*.${domain},DNS:${domain},IP:127.0.0.1,IP:::1`],
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      chmodSync(keyFile, 0o600);
    } catch (err) {
      throw new Error(
        `The web filter's development certificate could not be made with openssl (${(err as Error).message.split("\n")[0]}). ` +
          "Install openssl, or set DNS_TLS_CERT and DNS_TLS_KEY.",
      );
    }
  }
  return { cert: readFileSync(certFile), key: readFileSync(keyFile) };
}
