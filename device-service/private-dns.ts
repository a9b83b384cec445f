import {
  filterHostname,
  privateDnsTransition,
  privateDnsVerdict,
  type PrivateDnsState,
  type PrivateDnsTransition,
  type PrivateDnsVerdict,
} from "../core/private-dns";
import type { AlertEvent } from "../core/alert-events";
import type { DB } from "../db/index";
import type { DeviceServiceDeps } from "./context";
import type { StatusValues } from "./socket/status-rows";

/**
 * A phone's Private DNS against its kid's web filter (issue 54 item 4): the hostname the phone should use, what it
 * reported, and the transitions the alerts pipeline hears (core/private-dns.ts decides them).
 */

/** The kid's filter hostname when the web filter is on (`domain`) and the kid has a live filter id; else null. */
export async function expectedPrivateDns(db: DB, profileId: string, domain: string | undefined): Promise<string | null> {
  if (!domain) return null;
  const row = await db
    .selectFrom("web_filter_settings")
    .select(["filter_id", "revoked_at"])
    .where("profile_id", "=", profileId)
    .executeTakeFirst();
  return row && !row.revoked_at ? filterHostname(row.filter_id, domain) : null;
}

/** A status row's stored Private DNS (null: never reported). */
export function storedPrivateDns(
  row: { private_dns_mode: string | null; private_dns_hostname: string | null } | undefined,
): PrivateDnsState | null {
  const mode = row?.private_dns_mode;
  if (mode === "hostname" && row?.private_dns_hostname) return { mode, hostname: row.private_dns_hostname };
  if (mode === "off" || mode === "opportunistic") return { mode };
  return null;
}

const same = (a: PrivateDnsState | null, b: PrivateDnsState) =>
  a !== null && a.mode === b.mode && (a.hostname ?? null) === (b.hostname ?? null);

export interface PrivateDnsPhone {
  id: string;
  profile_id: string;
  /** The phone's last reported setting as this connection read or wrote it (undefined: not read yet; null: never reported). */
  private_dns?: PrivateDnsState | null;
}

/**
 * A phone reported its Private DNS (child_status): the status fields to write when the setting is new (none when it
 * is the same as stored: a reconnecting phone writes nothing more), and the transition it makes against the kid's
 * filter hostname (changed: the filter no longer sees the phone's lookups; restored). The caller writes the values with
 * the status row and hands the transition to `deps.onPrivateDnsTransition`, where the alerts pipeline listens.
 */
export async function ingestPrivateDns(
  deps: Pick<DeviceServiceDeps, "db" | "privateDnsDomain">,
  device: PrivateDnsPhone,
  state: PrivateDnsState,
  at: string,
): Promise<{ values: StatusValues; transition: PrivateDnsTransition | null }> {
  if (device.private_dns === undefined) {
    const row = await deps.db
      .selectFrom("device_status")
      .select(["private_dns_mode", "private_dns_hostname"])
      .where("device_id", "=", device.id)
      .executeTakeFirst();
    device.private_dns = storedPrivateDns(row);
  }
  const previous = device.private_dns;
  if (same(previous, state)) return { values: {}, transition: null };
  device.private_dns = state;
  const values: StatusValues = {
    private_dns_mode: state.mode,
    private_dns_hostname: state.mode === "hostname" ? (state.hostname ?? null) : null,
    private_dns_changed_at: at,
  };
  const expected = await expectedPrivateDns(deps.db, device.profile_id, deps.privateDnsDomain);
  const kind = privateDnsTransition(expected, previous, state);
  return {
    values,
    transition: kind && expected ? { kind, deviceId: device.id, profileId: device.profile_id, expected, state, at } : null,
  };
}

/** The alert a transition raises: "tamper.private-dns" when the phone leaves the filter; none when it comes back. */
export function privateDnsAlertEvent(t: PrivateDnsTransition): AlertEvent | null {
  if (t.kind !== "changed") return null;
  return {
    eventId: `tamper.private-dns:${t.deviceId}:${t.at}`,
    kind: "tamper.private-dns",
    profileId: t.profileId,
    deviceId: t.deviceId,
    at: t.at,
    details: { mode: t.state.mode, hostname: t.state.hostname ?? "", expected: t.expected },
  };
}

/** What the pages show of a phone's Private DNS: the expected hostname, the phone's setting, and the verdict. */
export interface PrivateDnsView {
  expected: string | null;
  state: PrivateDnsState | null;
  verdict: PrivateDnsVerdict;
}

export function privateDnsView(expected: string | null, state: PrivateDnsState | null): PrivateDnsView {
  return { expected, state, verdict: privateDnsVerdict(expected, state) };
}

/**
 * A phone's Private DNS for the pages (the dashboard's warning, the Web Filter page): `hostname` names the kid's
 * filter hostname for a filter id (AppServices.webFilter.hostname), null when the filter is switched off.
 */
export async function readPrivateDnsView(
  db: DB,
  phone: { deviceId: string; profileId: string },
  hostname: ((filterId: string) => string) | null,
): Promise<PrivateDnsView> {
  const [status, filter] = await Promise.all([
    db
      .selectFrom("device_status")
      .select(["private_dns_mode", "private_dns_hostname"])
      .where("device_id", "=", phone.deviceId)
      .executeTakeFirst(),
    hostname
      ? db
          .selectFrom("web_filter_settings")
          .select(["filter_id", "revoked_at"])
          .where("profile_id", "=", phone.profileId)
          .executeTakeFirst()
      : undefined,
  ]);
  const expected = hostname && filter && !filter.revoked_at ? hostname(filter.filter_id) : null;
  return privateDnsView(expected, storedPrivateDns(status));
}

/**
 * The dashboard's reading (its page cache keeps a page until a table it reads moves the kid's view revision, and
 * web_filter_settings does not): the phone's report against the hostname its newest policy names (the kid's filter
 * hostname, delivered), from the policy row the dashboard reads anyway. `filterOn`: AppServices.webFilter is present.
 */
export async function readPolicyPrivateDnsView(
  db: DB,
  deviceId: string,
  latestPolicyDocument: Promise<{ document: string } | undefined>,
  filterOn: boolean,
): Promise<PrivateDnsView> {
  const [status, latest] = await Promise.all([
    db
      .selectFrom("device_status")
      .select(["private_dns_mode", "private_dns_hostname"])
      .where("device_id", "=", deviceId)
      .executeTakeFirst(),
    latestPolicyDocument,
  ]);
  let expected: string | null = null;
  if (filterOn && latest) {
    try {
      expected = (JSON.parse(latest.document) as { privateDns?: { hostname?: string } | null }).privateDns?.hostname ?? null;
    } catch {
      expected = null;
    }
  }
  return privateDnsView(expected, storedPrivateDns(status));
}
