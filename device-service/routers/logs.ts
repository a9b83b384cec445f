import { z } from "zod";
import { calendarDay, dayRange } from "../../core/days";
import type { CommandStatus } from "../../db/schema-device-service";
import { OPEN_STATUSES } from "../commands/outbox";
import { FCM_ACTIONS, type CommandType } from "../commands/types";
import { deviceProcedure, router } from "../trpc";

/** Log cards and commands one day shows at most. */
export const DEVICE_LOG_DAY_CAP = 200;

type Detail = string | number | boolean | null | string[];

/** A log's details as the cards show them: plain values as key/value rows, string arrays as lists. */
export function logCard(details: string): { entries: { key: string; value: string }[]; lists: { key: string; items: string[] }[] } {
  let parsed: Record<string, Detail> = {};
  try {
    const v = JSON.parse(details) as unknown;
    if (v && typeof v === "object" && !Array.isArray(v)) parsed = v as Record<string, Detail>;
  } catch {
    /* stored by the telemetry handler from validated JSON; anything else shows nothing */
  }
  const entries: { key: string; value: string }[] = [];
  const lists: { key: string; items: string[] }[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (Array.isArray(value)) lists.push({ key, items: value.map(String) });
    else entries.push({ key, value: value === null ? "—" : String(value) });
  }
  return { entries, lists };
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

/** Spec 2 /device-logs: the phone's log uploads and the commands sent to it, for one day. */
export const logsRouter = router({
  list: deviceProcedure.input(z.object({ currentDate: calendarDay })).query(async ({ ctx, input }) => {
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
        .limit(DEVICE_LOG_DAY_CAP)
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
      logs: logs.map((l) => ({ id: l.id, title: l.title, created_at: l.created_at, device_time: l.device_time, ...logCard(l.details) })),
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
