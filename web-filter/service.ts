/**
 * What the portal's pages need of the web filter (`AppServices.webFilter`; built by the composition root, server/).
 * Absent when the filter is switched off.
 */
export interface WebFilterService {
  /** The phone's Private DNS hostname for a filter id: `<filter id>.<DNS_FILTER_DOMAIN>`. */
  hostname(filterId: string): string;
  /** The DNS-over-HTTPS address for a filter id (`<PUBLIC_URL>/dns-query/<filter id>`). */
  dohUrl(filterId: string): string;
  /** A kid's filter settings or block rules changed: every process reloads that kid's policy. */
  kidChanged(profileId: string): Promise<void>;
  /** Domains listed per category id (from the in-memory lists). */
  countsByCategory(): ReadonlyMap<string, number>;
}
