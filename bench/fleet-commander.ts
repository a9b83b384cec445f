import type { DB } from "../db/index";
import type { Bus } from "../device-service/bus";
import { issueCommand } from "../device-service/commands/outbox";
import { fleetDeviceId } from "../device-service/simulator/fleet";

/** Commands issued by this process (it holds no phone, so each one crosses to the phone's process through Redis). */
export function commander(db: DB, bus: Bus) {
  const deps = { db, bus, log: () => {} };
  const issued: string[] = [];
  let wake: (() => void) | null = null;
  bus.subscribe((m) => {
    if (m.type === "parent.refresh" && m.reason === "command.acknowledged") wake?.();
  });
  const statusOf = async (id: string) => (await db.selectFrom("device_commands").select("status").where("id", "=", id).executeTakeFirst())?.status;
  return {
    issued,
    async issue(i: number) {
      const c = await issueCommand(deps, { deviceId: fleetDeviceId(i), type: "LOCK" });
      issued.push(c.id);
      return c.id;
    },
    /** One command, timed from issue to its acknowledgement stored. */
    async roundTrip(i: number): Promise<number> {
      const t0 = performance.now();
      // An acknowledgement can arrive before this command is issued (an earlier command's, another process's):
      // it wakes nothing until the id is known.
      let id: string | null = null;
      const acked = new Promise<void>((resolve) => {
        wake = () => void (id && statusOf(id).then((s) => s === "acknowledged" && resolve()));
      });
      id = await this.issue(i);
      if ((await statusOf(id)) !== "acknowledged") await acked;
      wake = null;
      return performance.now() - t0;
    },
    async unacknowledged(): Promise<number> {
      let open = 0;
      for (let k = 0; k < issued.length; k += 500) {
        const rows = await db.selectFrom("device_commands").select("status").where("id", "in", issued.slice(k, k + 500)).execute();
        open += issued.slice(k, k + 500).length - rows.filter((r) => r.status === "acknowledged").length;
      }
      return open;
    },
  };
}
