/** One upstream resolver of DNS_UPSTREAM. */
export type UpstreamAddress =
  | { kind: "udp"; host: string; port: number; text: string }
  | { kind: "tls"; host: string; port: number; servername: string; text: string }
  | { kind: "https"; url: URL; text: string };

/**
 * Parses DNS_UPSTREAM: comma-separated `udp://host[:53]`, `tls://host[:853][#servername]` (the name the certificate is
 * checked against; the host by default) and `https://host[:443]/path` (RFC 8484 POST). IPv6 hosts in brackets. The
 * order is the failover order. Throws on anything else, so a typo stops the process at start-up.
 */
export function parseUpstreams(text: string): UpstreamAddress[] {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error("DNS_UPSTREAM names no upstream resolver.");
  return parts.map(parseUpstream);
}

function parseUpstream(text: string): UpstreamAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`DNS_UPSTREAM: "${text}" is not udp://host:port, tls://host:port#servername or https://host/path.`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host || url.username || url.password) throw new Error(`DNS_UPSTREAM: "${text}" has no host (or has credentials).`);
  switch (url.protocol) {
    case "udp:":
      if (url.pathname || url.search || url.hash) throw new Error(`DNS_UPSTREAM: "${text}": udp:// takes host and port only.`);
      return { kind: "udp", host, port: Number(url.port || 53), text };
    case "tls:":
      if (url.pathname || url.search) throw new Error(`DNS_UPSTREAM: "${text}": tls:// takes host, port and #servername only.`);
      return { kind: "tls", host, port: Number(url.port || 853), servername: url.hash.slice(1) || host, text };
    case "https:":
      return { kind: "https", url, text };
    default:
      throw new Error(`DNS_UPSTREAM: "${text}": the scheme must be udp://, tls:// or https://.`);
  }
}
