import { normaliseDomain } from "#web-filter/lists/domain-name";

/**
 * A site the parent typed for the allow list, as the filter matches it (`https://www.Example.com/path` →
 * `www.example.com`), or the message that says what is wrong with it.
 */
export function parseAllowedHost(raw: string): { host: string } | { error: string } {
  const typed = raw.trim();
  if (!typed) return { error: "Type a site to allow, e.g. example.com." };
  const host = typed
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "");
  const n = normaliseDomain(host);
  if ("domain" in n) return { host: n.domain };
  switch (n.rejected) {
    case "IP address":
      return { error: "Type the site's name, not an IP address (e.g. example.com)." };
    case "local name":
      return { error: `“${typed}” is a name on a home network, not a website: type a site such as example.com.` };
    case "single label":
      return { error: `“${typed}” needs its ending too, e.g. ${host || "example"}.com.` };
    default:
      return { error: `“${typed}” is not a website name: type a site such as example.com.` };
  }
}
