import { z } from "zod";
import { calendarDay, dayRange } from "../../core/days";
import { cleanPhoneTextOrNull, cleanPhoneValue } from "../../core/phone-text";
import { DEVICE_LOG_MAX_BYTES, DEVICE_LOG_MAX_PAGE, DEVICE_LOG_PAGE_SIZE } from "../../core/limits";
import type { CommandStatus } from "../../db/schema-device-service";
import { OPEN_STATUSES } from "../commands/outbox";
import { FCM_ACTIONS, type CommandType } from "../commands/types";
import { deviceProcedure, router } from "../trpc";

/** Commands one day shows at most. */
export const DEVICE_LOG_DAY_CAP = 200;

type Detail = string | number | boolean | null | string[];

/**
 * A log's details as the cards show them: plain values as key/value rows, string arrays as lists. At most
 * DEVICE_LOG_MAX_BYTES characters of them (logs stored before that cap could be bigger): the rest is cut, and `cut` says so.
 */
export function logCard(details: string): {
  entries: { key: string; value: string }[];
  lists: { key: string; items: string[] }[];
  cut: boolean;
} {
  let parsed: Record<string, Detail> = {};
  try {
    const v = JSON.parse(details) as unknown;
    // Cleaned for logs stored before phone text was cleaned at ingest (core/phone-text.ts).
    if (v && typeof v === "object" && !Array.isArray(v)) parsed = cleanPhoneValue(v as Record<string, Detail>);
  } catch {
    /* stored by the telemetry handler from validated JSON; anything else shows nothing */
  }
  const entries: { key: string; value: string }[] = [];
  const lists: { key: string; items: string[] }[] = [];
  let room = DEVICE_LOG_MAX_BYTES;
  let cut = false;
  const take = (text: string) => {
    if (text.length > room) cut = true;
    else room -= text.length;
    return !cut;
  };
  for (const [key, value] of Object.entries(parsed)) {
    if (cut || !take(key)) break;
    if (Array.isArray(value)) {
      const items: string[] = [];
      for (const item of value.map(String)) {
        if (!take(item)) break;
        items.push(item);
      }
      lists.push({ key, items });
    } else {
      const text = value === null ? "—" : String(value);
      if (!take(text)) break;
      entries.push({ key, value: text });
    }
  }
  return { entries, lists, cut };
}

const ACTION_BY_TYPE = new Map<string, string>(Object.entries(FCM_ACTIONS).map(([action, type]) => [type, action]));
const TYPE_LABELS: Partial<Record<CommandType, string>> = {
  FETCH_LOGS: "Fetch Log",
  APPLY_POLICY: "Apply policy",
  SYNC: "Sync",
  LOCK: "Lock",
  REBOOT: "Reboot",
  INSTALL_APP: "Install app",
};

const text = (v: unknown) => (typeof v === "string" && v ? v : null);

/**
 * Spec 2 /device-logs: the phone's log uploads and the commands sent to it, for one day. The log cards come a page of
 * DEVICE_LOG_PAGE_SIZE at a time, newest first (`page` from 1; `hasNextPage` when there are older ones that day).
 */
export const logsRouter = router({
  list: deviceProcedure
    .input(z.object({ currentDate: calendarDay, page: z.number().int().min(1).max(DEVICE_LOG_MAX_PAGE).default(1) }))
    .query(async ({ ctx, input }) => {
      const { from, to } = dayRange(input.currentDate);
      const [logs, commands] = await Promise.all([
        ctx.db
          .selectFrom("device_logs")
          .selectAll()
          .where("device_id", "=", ctx.device.id)
          .where("created_at", ">=", from)
          .where("created_at", "<", to)
          .orderBy("created_at", "desc")
          .orderBy("id")
          .limit(DEVICE_LOG_PAGE_SIZE + 1)
          .offset((input.page - 1) * DEVICE_LOG_PAGE_SIZE)
          .execute(),
        ctx.db
          .selectFrom("device_commands")
          .leftJoin("parents", "parents.id", "device_commands.issued_by")
          .select([
            "device_commands.id",
            "device_commands.type",
            "device_commands.payload",
            "device_commands.status",
            "device_commands.error",
            "device_commands.created_at",
            "device_commands.completed_at",
            "device_commands.expires_at",
            "parents.name as sentBy",
          ])
          .where("device_commands.device_id", "=", ctx.device.id)
          .where("device_commands.created_at", ">=", from)
          .where("device_commands.created_at", "<", to)
          .orderBy("device_commands.created_at", "desc")
          .orderBy("device_commands.id")
          .limit(DEVICE_LOG_DAY_CAP)
          .execute(),
      ]);
      const now = new Date().toISOString();
      return {
        page: input.page,
        hasNextPage: logs.length > DEVICE_LOG_PAGE_SIZE,
        logs: logs.slice(0, DEVICE_LOG_PAGE_SIZE).map((l) => ({
          id: l.id,
          title: cleanPhoneTextOrNull(l.title),
          created_at: l.created_at,
          device_time: l.device_time,
          ...logCard(l.details),
        })),
        commands: commands.map((c) => {
          const payload = JSON.parse(c.payload) as Record<string, unknown>;
          return {
            id: c.id,
            type: c.type as CommandType,
            action: text(payload.action) ?? ACTION_BY_TYPE.get(c.type) ?? TYPE_LABELS[c.type as CommandType] ?? c.type,
            title: text(payload.title),
            message: text(payload.message),
            packageName: text(payload.packageName),
            // An open command past its expiry reads as expired even before the sweep closes it.
            status: (OPEN_STATUSES.includes(c.status) && c.expires_at && c.expires_at <= now ? "expired" : c.status) as CommandStatus,
            error: c.error,
            created_at: c.created_at,
            completed_at: c.completed_at,
            sentBy: c.sentBy ?? null,
          };
        }),
      };
    }),
});
