import { describe, expect, it } from "vitest";
import { newId } from "../../../core/ids.server";
import { DIALECTS } from "../../index.testing";
import { latestRingCommand } from "./ring";
import { useDemoFamily } from "./dashboard.testing";

// Ring This Device: the phone's last RING or STOP_SOUND command (other commands do not count).
describe.each(DIALECTS)("latest ring command on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("is the newest RING or STOP_SOUND of this phone, with its status", async () => {
    const { t, mia } = f;
    expect(await latestRingCommand(t.db, mia.deviceId)).toBeNull();
    const add = (type: string, status: "queued" | "acknowledged", at: string) =>
      t.db
        .insertInto("device_commands")
        .values({
          id: newId(),
          device_id: mia.deviceId,
          type,
          payload: "{}",
          status,
          policy_version: null,
          issued_by: null,
          error: null,
          result: null,
          created_at: at,
          sent_at: null,
          completed_at: null,
          expires_at: null,
        })
        .execute();
    await add("RING", "acknowledged", "2026-11-23T10:00:00.000Z");
    await add("LOCK", "queued", "2026-11-23T10:05:00.000Z");
    expect(await latestRingCommand(t.db, mia.deviceId)).toEqual({ type: "RING", status: "acknowledged" });
    await add("STOP_SOUND", "queued", "2026-11-23T10:06:00.000Z");
    expect(await latestRingCommand(t.db, mia.deviceId)).toEqual({ type: "STOP_SOUND", status: "queued" });
    expect(await latestRingCommand(t.db, f.leo.deviceId)).toBeNull();
  });
});
