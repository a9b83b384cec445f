import type { DB } from "../db/index";
import type { Bus } from "../device-service/bus";
import { issueCommand } from "../device-service/commands/outbox";
import { fleetDeviceId } from "../device-service/simulator/fleet";

/** Commands issued by this process (it holds no phone, so each one crosses to the phone's process through Redis). */
export function commander(db: DB, bus: Bus) {
  const deps = { db, bus, log: () => {} };
  const issued: string[] = [];
  // Commands whose acknowledgement the device service announced as stored (parent.refresh names the command), and
  // the one round trip waiting for its own.
  const acked = new Set<string>();
  let waiting: { id: string; resolve: () => void } | null = null;
  bus.subscribe((m) => {
    if (m.type !== "parent.refresh" || m.reason !== "command.acknowledged" || !m.commandId) return;
    acked.add(m.commandId);
    if (waiting?.id === m.commandId) waiting.resolve();
  });
  return {
    issued,
    async issue(i: number) {
      const c = await issueCommand(deps, { deviceId: fleetDeviceId(i), type: "LOCK" });
      issued.push(c.id);
      return c.id;
    },
    /** One command, timed from issue to its acknowledgement stored (announced to the kid's parents). */
    async roundTrip(i: number): Promise<number> {
      const t0 = performance.now();
      const id = await this.issue(i);
      // The acknowledgement can be announced before issue() returns (it re-reads the row after dispatching).
      if (!acked.has(id)) await new Promise<void>((resolve) => (waiting = { id, resolve }));
      waiting = null;
      acked.delete(id);
      return performance.now() - t0;
    },
    async unacknowledged(): Promise<number> {
      let open = 0;
      for (let k = 0; k < issued.length; k += 500) {
        const rows = await db
          .selectFrom("device_commands")
          .select("status")
          .where("id", "in", issued.slice(k, k + 500))
          .execute();
        open += issued.slice(k, k + 500).length - rows.filter((r) => r.status === "acknowledged").length;
      }
      return open;
    },
  };
}
