import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCHEDULE_NAME_REQUIRED, SCHEDULE_NO_DAY, SCHEDULE_NOTHING_BLOCKED, SCHEDULE_SAME_TIMES } from "#core/time-values";
import { createSchedule, listSchedules } from "#db/queries/time-rules/schedules";
import { listTimeRules } from "#db/queries/time-rules/rules";
import type { Harness } from "../../server/harness.testing";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import * as schedules from "./_app.schedules";

const MIA = "DEMO-MIA-0001";
type Page = {
  schedules: { id: string; name: string; days: string; time: string; blocks: string }[];
  draft: { name: string; days: number[]; start: string; end: string; blocks: string } | null;
  confirm: { id: string; name: string } | null;
  apps: { packageName: string; alwaysAllowed: boolean }[];
};

/** /schedules through its loader and action, as a signed-in parent (issue 21 item 2). */
describe("the schedules page", () => {
  let h: Harness;
  let rh: RouteHarness;
  let mia: { profileId: string; deviceId: string };
  let othersSchedule: string;
  beforeAll(async () => {
    rh = await startRouteHarness();
    ({ h } = rh);
    mia = await h.kid(MIA);
    othersSchedule = await createSchedule(h.tdb.db, h.other.profileId, {
      name: "Their bedtime",
      days: [0],
      start: 1260,
      end: 420,
      blocksAll: true,
      categories: [],
      apps: [],
    });
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const base = () => `/schedules?profileId=${mia.profileId}&serialNumber=${MIA}`;
  const call = (fn: unknown, url: string, form?: URLSearchParams) => rh.call(fn, url, { form });
  const page = async (qs = "") => (await (await call(schedules.loader, `${base()}${qs}`)).json()) as Page;
  const toastOf = (res: Response) => rh.toastOf(res);
  const form = (fields: Record<string, string | string[]>) => {
    const f = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
    return f;
  };
  const bedtime = {
    intent: "save",
    name: "Bedtime",
    days: ["0", "1", "2", "3", "4", "5", "6"],
    start: "21:00",
    end: "07:00",
    blocks: "all",
  };

  it("Add Schedule offers Bedtime and School time ready-made", async () => {
    expect((await page("&modal=add&preset=bedtime")).draft).toMatchObject({
      name: "Bedtime",
      days: [0, 1, 2, 3, 4, 5, 6],
      start: "21:00",
      end: "07:00",
      blocks: "all",
    });
    expect((await page("&modal=add&preset=school")).draft).toMatchObject({
      name: "School time",
      days: [0, 1, 2, 3, 4],
      start: "08:30",
      end: "15:00",
    });
    expect((await page("&modal=add")).draft).toMatchObject({ name: "", days: [] });
    expect((await page()).draft).toBeNull();
  });

  it.each<[string, Record<string, string | string[]>, string, string]>([
    ["an empty name", { name: "  " }, "name", SCHEDULE_NAME_REQUIRED],
    ["no weekday", { days: [] }, "days", SCHEDULE_NO_DAY],
    ["the end equal to the start", { end: "21:00" }, "end", SCHEDULE_SAME_TIMES],
    ["nothing chosen to block", { blocks: "some" }, "blocks", SCHEDULE_NOTHING_BLOCKED],
  ])("refuses %s with its message under the field", async (_what, change, field, message) => {
    const res = await call(schedules.action, base(), form({ ...bedtime, ...change }));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]> } };
    expect(body.result.error[field]).toEqual([message]);
    expect(await listSchedules(h.tdb.db, mia.profileId)).toEqual([]);
  });

  it("saves a schedule across midnight, lists it, edits it and deletes it after asking", async () => {
    const saved = await call(schedules.action, `${base()}&modal=add&preset=bedtime`, form(bedtime));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(base());
    expect(await toastOf(saved)).toMatchObject({ type: "success", message: "Bedtime is saved for Mia's phone." });
    const [s] = (await page()).schedules;
    expect(s).toMatchObject({ name: "Bedtime", days: "Every day", time: "21:00–07:00 (next day)", blocks: "The whole phone" });

    const apps = (await page()).apps;
    const edited = await call(
      schedules.action,
      `${base()}&modal=edit&id=${s.id}`,
      form({
        ...bedtime,
        id: s.id,
        name: "Weekend nights",
        days: ["4", "5"],
        start: "22:30",
        end: "08:00",
        blocks: "some",
        apps: [apps[0].packageName],
      }),
    );
    expect(edited.status).toBe(302);
    expect((await page(`&modal=edit&id=${s.id}`)).draft).toMatchObject({
      name: "Weekend nights",
      days: [4, 5],
      start: "22:30",
      end: "08:00",
      blocks: "some",
    });
    expect((await page()).schedules[0]).toMatchObject({ days: "Friday and Saturday", blocks: expect.any(String) });

    expect((await page(`&confirm=delete&id=${s.id}`)).confirm).toEqual({ id: s.id, name: "Weekend nights" });
    const deleted = await call(schedules.action, `${base()}&confirm=delete&id=${s.id}`, form({ intent: "delete", id: s.id }));
    expect(await toastOf(deleted)).toMatchObject({ type: "success", message: "The schedule is deleted." });
    expect(deleted.headers.get("Location")).toBe(base());
    expect((await page()).schedules).toEqual([]);
  });

  it("refuses another family's schedule id on every read and action, and changes nothing", async () => {
    expect((await call(schedules.loader, `${base()}&modal=edit&id=${othersSchedule}`)).status).toBe(404);
    expect((await call(schedules.loader, `${base()}&confirm=delete&id=${othersSchedule}`)).status).toBe(404);
    expect((await call(schedules.action, base(), form({ ...bedtime, id: othersSchedule }))).status).toBe(404);
    expect((await call(schedules.action, base(), form({ intent: "delete", id: othersSchedule }))).status).toBe(404);
    expect(await listSchedules(h.tdb.db, h.other.profileId)).toMatchObject([{ id: othersSchedule, name: "Their bedtime" }]);
  });

  it("marks apps Always allowed; only the kid's own apps count", async () => {
    const [a, b] = (await page()).apps;
    const res = await call(
      schedules.action,
      base(),
      form({ intent: "always-allowed", allowed: [a.packageName, b.packageName, "com.not.on.the.phone"] }),
    );
    expect(await toastOf(res)).toMatchObject({ type: "success", message: "Always allowed apps are saved." });
    const allowed = async () =>
      (await listTimeRules(h.tdb.db, mia.profileId))
        .filter((r) => r.alwaysAllowed)
        .map((r) => r.target)
        .sort();
    expect(await allowed()).toEqual([a.packageName, b.packageName].sort());
    await call(schedules.action, base(), form({ intent: "always-allowed", allowed: [b.packageName] }));
    expect(await allowed()).toEqual([b.packageName]);
    expect((await page()).apps.find((x) => x.packageName === b.packageName)?.alwaysAllowed).toBe(true);
  });
});
