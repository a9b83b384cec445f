/**
 * The providers' documented CNAME rewrites that force SafeSearch and YouTube Restricted Mode on a network:
 *
 * - Google: "Lock SafeSearch for devices & networks you manage" (support.google.com/websearch/answer/186669): map
 *   www.google.com and Google's country domains (www.google.co.uk, www.google.com.au, www.google.de…, the list at
 *   www.google.com/supported_domains) to forcesafesearch.google.com.
 * - Bing: "Block adult content with SafeSearch" (support.microsoft.com, Bing SafeSearch for schools and networks):
 *   map www.bing.com to strict.bing.com.
 * - DuckDuckGo: "Can I force safe search on my network?" (duckduckgo.com/duckduckgo-help-pages): map duckduckgo.com
 *   and www.duckduckgo.com to safe.duckduckgo.com.
 * - YouTube: "Manage YouTube content on your network" (support.google.com/a/answer/6214622): map www.youtube.com,
 *   m.youtube.com, youtubei.googleapis.com, youtube.googleapis.com and www.youtube-nocookie.com to
 *   restrict.youtube.com (Strict Restricted Mode) or restrictmoderate.youtube.com (Moderate Restricted Mode).
 *
 * Exact names only (the providers list these hosts; their subdomains are other services).
 */

export const GOOGLE_SAFE = "forcesafesearch.google.com";

/**
 * Google's search hosts: www.google.<tld> in the three shapes its supported domains take (google.de, google.co.uk,
 * google.com.au; google.com and google.cat). A pattern rather than the ~190 names, so a new country domain is covered;
 * other generic domains (www.google.org, the charity) are not search.
 */
export const GOOGLE_SEARCH_HOST = /^www\.google\.(?:com|cat|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/;

export const SAFE_SEARCH_REWRITES: ReadonlyMap<string, string> = new Map([
  ["www.bing.com", "strict.bing.com"],
  ["duckduckgo.com", "safe.duckduckgo.com"],
  ["www.duckduckgo.com", "safe.duckduckgo.com"],
]);

export const YOUTUBE_HOSTS: readonly string[] = [
  "www.youtube.com",
  "m.youtube.com",
  "youtubei.googleapis.com",
  "youtube.googleapis.com",
  "www.youtube-nocookie.com",
];

export const YOUTUBE_RESTRICT = { strict: "restrict.youtube.com", moderate: "restrictmoderate.youtube.com" } as const;
