import { describe, expect, it } from "vitest";
import type { FilterPolicyRow } from "../../db/queries/web-filter/policy-rows";
import { DomainIndex } from "../lists/domain-index";
import { decideLookup } from "./decide";
import { dnsBlockedHost, kidFilter } from "./kid-filter";

const index = new DomainIndex(["social-networks", "video-streaming", "gambling"]);
for (const [d, c] of [
  ["facebook.com", "social-networks"],
  ["instagram.com", "social-networks"],
  ["youtube.com", "video-streaming"],
  ["casino.example", "gambling"],
] as const)
  index.add(d, c);
index.compact();

// School time: Monday to Friday, 08:00–15:00 (days 0 = Monday).
const SCHOOL = { days: [0, 1, 2, 3, 4], start: 8 * 60, end: 15 * 60 };
// Bedtime over midnight: every day 21:00–07:00.
const NIGHT = { days: [0, 1, 2, 3, 4, 5, 6], start: 21 * 60, end: 7 * 60 };
const ZONE = "Europe/London";
// Monday 30 Nov 2026, London is UTC in winter.
const MONDAY_NOON = new Date("2026-11-30T12:00:00Z");
const MONDAY_EVENING = new Date("2026-11-30T18:00:00Z");
const SUNDAY_NOON = new Date("2026-11-29T12:00:00Z");

const row = (over: Partial<FilterPolicyRow> = {}): FilterPolicyRow => ({
  profileId: "p1",
  filterId: "abcdefghij0123456789",
  timeZone: ZONE,
  safeSearch: false,
  youtube: "off",
  allowList: [],
  categories: [],
  blockedUrls: [],
  ...over,
});

interface Case {
  name: string;
  filter: Partial<FilterPolicyRow>;
  qname: string;
  now?: Date;
  zone?: string;
  want: ReturnType<typeof decideLookup>;
}

const allow = { action: "allow" } as const;
const block = (reason: string) => ({ action: "block", reason }) as const;
const rewrite = (cname: string) => ({ action: "rewrite", cname }) as const;
const always = (categoryId: string) => ({ categoryId, schedule: null });

const CASES: Case[] = [
  { name: "nothing set: allowed", filter: {}, qname: "facebook.com", want: allow },
  {
    name: "a blocked category blocks its domain",
    filter: { categories: [always("social-networks")] },
    qname: "facebook.com",
    want: block("category:social-networks"),
  },
  {
    name: "… and its subdomains",
    filter: { categories: [always("social-networks")] },
    qname: "m.facebook.com",
    want: block("category:social-networks"),
  },
  { name: "… not a look-alike name", filter: { categories: [always("social-networks")] }, qname: "notfacebook.com", want: allow },
  { name: "another category is not blocked", filter: { categories: [always("gambling")] }, qname: "facebook.com", want: allow },
  { name: "an unlisted name is allowed", filter: { categories: [always("social-networks")] }, qname: "wikipedia.org", want: allow },
  {
    name: "a /browser-logs entry blocks its host",
    filter: { blockedUrls: ["tiktok.com"] },
    qname: "tiktok.com",
    want: block("rule:tiktok.com"),
  },
  { name: "… and its subdomains", filter: { blockedUrls: ["tiktok.com"] }, qname: "www.tiktok.com", want: block("rule:tiktok.com") },
  { name: "… not its parent", filter: { blockedUrls: ["www.tiktok.com"] }, qname: "tiktok.com", want: allow },
  { name: "an entry with a path is left to the kids app", filter: { blockedUrls: ["news.test/sport"] }, qname: "news.test", want: allow },
  { name: "an entry with a port is left to the kids app", filter: { blockedUrls: ["games.test:8080"] }, qname: "games.test", want: allow },
  {
    name: "a rule comes before a category",
    filter: { blockedUrls: ["facebook.com"], categories: [always("social-networks")] },
    qname: "facebook.com",
    want: block("rule:facebook.com"),
  },
  {
    name: "the allow list wins over a category",
    filter: { allowList: ["facebook.com"], categories: [always("social-networks")] },
    qname: "www.facebook.com",
    want: allow,
  },
  {
    name: "the allow list wins over a rule",
    filter: { allowList: ["tiktok.com"], blockedUrls: ["tiktok.com"] },
    qname: "tiktok.com",
    want: allow,
  },
  {
    name: "an allowed subdomain leaves its parent blocked",
    filter: { allowList: ["business.facebook.com"], categories: [always("social-networks")] },
    qname: "facebook.com",
    want: block("category:social-networks"),
  },
  {
    name: "a scheduled category is blocked inside its window",
    filter: { categories: [{ categoryId: "social-networks", schedule: SCHOOL }] },
    qname: "instagram.com",
    now: MONDAY_NOON,
    want: block("category:social-networks"),
  },
  {
    name: "… not after it",
    filter: { categories: [{ categoryId: "social-networks", schedule: SCHOOL }] },
    qname: "instagram.com",
    now: MONDAY_EVENING,
    want: allow,
  },
  {
    name: "… nor on a day it does not run",
    filter: { categories: [{ categoryId: "social-networks", schedule: SCHOOL }] },
    qname: "instagram.com",
    now: SUNDAY_NOON,
    want: allow,
  },
  {
    name: "the window is read in the family's zone (noon UTC is 07:00 in New York)",
    filter: { categories: [{ categoryId: "social-networks", schedule: SCHOOL }] },
    qname: "instagram.com",
    now: MONDAY_NOON,
    zone: "America/New_York",
    want: allow,
  },
  {
    name: "a window over midnight blocks after midnight",
    filter: { categories: [{ categoryId: "gambling", schedule: NIGHT }] },
    qname: "casino.example",
    now: new Date("2026-11-30T02:00:00Z"),
    want: block("category:gambling"),
  },
  { name: "SafeSearch: Google", filter: { safeSearch: true }, qname: "www.google.com", want: rewrite("forcesafesearch.google.com") },
  {
    name: "SafeSearch: a Google country domain",
    filter: { safeSearch: true },
    qname: "www.google.co.uk",
    want: rewrite("forcesafesearch.google.com"),
  },
  {
    name: "SafeSearch: Google .com.au",
    filter: { safeSearch: true },
    qname: "www.google.com.au",
    want: rewrite("forcesafesearch.google.com"),
  },
  { name: "SafeSearch: Google .de", filter: { safeSearch: true }, qname: "www.google.de", want: rewrite("forcesafesearch.google.com") },
  { name: "SafeSearch leaves Google's other hosts", filter: { safeSearch: true }, qname: "mail.google.com", want: allow },
  { name: "SafeSearch leaves google.org (not search)", filter: { safeSearch: true }, qname: "www.google.org", want: allow },
  { name: "SafeSearch: Bing", filter: { safeSearch: true }, qname: "www.bing.com", want: rewrite("strict.bing.com") },
  { name: "SafeSearch: DuckDuckGo", filter: { safeSearch: true }, qname: "duckduckgo.com", want: rewrite("safe.duckduckgo.com") },
  { name: "SafeSearch off: no rewrite", filter: {}, qname: "www.google.com", want: allow },
  { name: "YouTube strict", filter: { youtube: "strict" }, qname: "www.youtube.com", want: rewrite("restrict.youtube.com") },
  { name: "YouTube moderate", filter: { youtube: "moderate" }, qname: "m.youtube.com", want: rewrite("restrictmoderate.youtube.com") },
  {
    name: "YouTube: the app's API host",
    filter: { youtube: "strict" },
    qname: "youtubei.googleapis.com",
    want: rewrite("restrict.youtube.com"),
  },
  {
    name: "YouTube: the embeds' host",
    filter: { youtube: "moderate" },
    qname: "www.youtube-nocookie.com",
    want: rewrite("restrictmoderate.youtube.com"),
  },
  { name: "YouTube off: no rewrite", filter: { safeSearch: true }, qname: "www.youtube.com", want: allow },
  {
    name: "a blocked category wins over Restricted Mode",
    filter: { youtube: "strict", categories: [always("video-streaming")] },
    qname: "www.youtube.com",
    want: block("category:video-streaming"),
  },
  {
    name: "an allowed host still gets SafeSearch",
    filter: { safeSearch: true, allowList: ["google.com"] },
    qname: "www.google.com",
    want: rewrite("forcesafesearch.google.com"),
  },
];

describe("decideLookup", () => {
  it.each(CASES)("$name", (c) => {
    expect(decideLookup(kidFilter(row(c.filter)), index, c.qname, c.now ?? MONDAY_NOON, c.zone ?? ZONE)).toEqual(c.want);
  });
});

describe("dnsBlockedHost", () => {
  it.each([
    ["example.com", "example.com"],
    ["Example.COM.", "example.com"],
    ["example.com/page", null],
    ["example.com:8080", null],
    ["[2001:db8::1]", null],
    ["", null],
  ])("%s → %s", (entry, want) => {
    expect(dnsBlockedHost(entry)).toBe(want);
  });
});
