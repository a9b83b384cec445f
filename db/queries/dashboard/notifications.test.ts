import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../index.testing";
import { countUnreadNotifications, listNotifications, markNotificationsRead } from "./notifications";
import { NOW, useDemoFamily } from "./dashboard.testing";

describe.each(DIALECTS)("dashboard notification queries on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("pages notifications and resets the unread count on opening", async () => {
    const { t, mia, leo } = f;
    expect(await countUnreadNotifications(t.db, mia.profileId)).toBe(4);
    const page1 = await listNotifications(t.db, mia.profileId, 20);
    expect(page1.items).toHaveLength(20);
    expect(page1.total).toBe(26);
    expect((await listNotifications(t.db, mia.profileId, 40)).items).toHaveLength(26);
    await markNotificationsRead(t.db, mia.profileId, NOW);
    expect(await countUnreadNotifications(t.db, mia.profileId)).toBe(0);
    expect(await countUnreadNotifications(t.db, leo.profileId)).toBe(4);
  });
});
