/** The alert centre's and the alert settings' reads and writes (issue 55 item 4). */
import type { ExpressionBuilder } from "kysely";
import { ALERT_CHANNELS, ALERT_KINDS, type AlertChannel, type AlertKind } from "../../core/alert-events";
import { defaultEnabled } from "../../core/alert-texts";
import type { DB } from "../index";
import type { Database } from "../schema";
import { kidAccessOfParent } from "./access";

type Who = { id: string; email: string };

/** The parent's alerts shown in the centre: theirs, the centre on, about a kid they may still see. */
function visible(db: DB, parent: Who) {
  const access = kidAccessOfParent(db, parent);
  return (eb: ExpressionBuilder<Database, "alerts">) =>
    eb.and([
      eb("alerts.parent_id", "=", parent.id),
      eb("alerts.in_centre", "=", 1),
      eb.or([
        eb(
          "alerts.profile_id",
          "in",
          db.selectFrom("kid_profiles").select("kid_profiles.id").where("kid_profiles.parent_id", "=", parent.id),
        ),
        ...(access.delegated ? [eb("alerts.profile_id", "in", access.delegated)] : []),
      ]),
    ]);
}

/** The bell's number. */
export async function unreadAlertCount(db: DB, parent: Who): Promise<number> {
  const row = await db
    .selectFrom("alerts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(visible(db, parent))
    .where("alerts.read_at", "is", null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export const ALERTS_PAGE_SIZE = 20;

export interface AlertFilter {
  kid: string | null;
  kind: AlertKind | null;
  page: number;
}

/** One page of the parent's alerts, newest first, and how many match. */
export async function listAlerts(db: DB, parent: Who, f: AlertFilter) {
  let q = db.selectFrom("alerts").innerJoin("kid_profiles", "kid_profiles.id", "alerts.profile_id").where(visible(db, parent));
  if (f.kid) q = q.where("alerts.profile_id", "=", f.kid);
  if (f.kind) q = q.where("alerts.kind", "=", f.kind);
  const [rows, count] = await Promise.all([
    q
      .select([
        "alerts.id",
        "alerts.kind",
        "alerts.title",
        "alerts.body",
        "alerts.url",
        "alerts.at",
        "alerts.read_at",
        "alerts.profile_id",
        "kid_profiles.name as kid_name",
      ])
      .orderBy("alerts.at", "desc")
      .orderBy("alerts.id", "desc")
      .limit(ALERTS_PAGE_SIZE)
      .offset((f.page - 1) * ALERTS_PAGE_SIZE)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/** Marks the given alerts (or all of the parent's) read; returns how many changed. Only the parent's own rows. */
export async function markAlertsRead(db: DB, parent: Who, ids: string[] | "all", now: Date = new Date()): Promise<number> {
  let q = db.updateTable("alerts").set({ read_at: now.toISOString() }).where("parent_id", "=", parent.id).where("read_at", "is", null);
  if (ids !== "all") {
    if (!ids.length) return 0;
    q = q.where("id", "in", ids);
  }
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export type AlertSwitchMatrix = Record<AlertKind, Record<AlertChannel, boolean>>;

export interface AlertSettings {
  switches: AlertSwitchMatrix;
  quiet: { start: string; end: string } | null;
}

export async function readAlertSettings(db: DB, parentId: string): Promise<AlertSettings> {
  const [prefs, quiet] = await Promise.all([
    db.selectFrom("alert_preferences").select(["kind", "channel", "enabled"]).where("parent_id", "=", parentId).execute(),
    db.selectFrom("alert_quiet_hours").select(["start_time", "end_time"]).where("parent_id", "=", parentId).executeTakeFirst(),
  ]);
  const switches = Object.fromEntries(
    ALERT_KINDS.map((k) => [k, Object.fromEntries(ALERT_CHANNELS.map((c) => [c, defaultEnabled(k, c)]))]),
  ) as AlertSwitchMatrix;
  for (const p of prefs) if (switches[p.kind]?.[p.channel] !== undefined) switches[p.kind][p.channel] = p.enabled === 1;
  return { switches, quiet: quiet ? { start: quiet.start_time, end: quiet.end_time } : null };
}

/** Stores every switch (a row per kind × channel) and the quiet hours (null: none), in one transaction. */
export async function saveAlertSettings(db: DB, parentId: string, s: AlertSettings, now: Date = new Date()): Promise<void> {
  const ts = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("alert_preferences")
      .values(
        ALERT_KINDS.flatMap((kind) =>
          ALERT_CHANNELS.map((channel) => ({
            parent_id: parentId,
            kind,
            channel,
            enabled: s.switches[kind][channel] ? 1 : 0,
            updated_at: ts,
          })),
        ),
      )
      .onConflict((oc) =>
        oc.columns(["parent_id", "kind", "channel"]).doUpdateSet((eb) => ({ enabled: eb.ref("excluded.enabled"), updated_at: ts })),
      )
      .execute();
    if (s.quiet)
      await trx
        .insertInto("alert_quiet_hours")
        .values({ parent_id: parentId, start_time: s.quiet.start, end_time: s.quiet.end, updated_at: ts })
        .onConflict((oc) => oc.column("parent_id").doUpdateSet({ start_time: s.quiet!.start, end_time: s.quiet!.end, updated_at: ts }))
        .execute();
    else await trx.deleteFrom("alert_quiet_hours").where("parent_id", "=", parentId).execute();
  });
}

/** The alert mail's unsubscribe link: every alert e-mail off (the other channels stay as they are). */
export async function turnAlertEmailsOff(db: DB, parentId: string, now: Date = new Date()): Promise<void> {
  const current = await readAlertSettings(db, parentId);
  for (const k of ALERT_KINDS) current.switches[k].email = false;
  await saveAlertSettings(db, parentId, current, now);
}
