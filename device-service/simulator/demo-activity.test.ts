import { describe, expect, it } from "vitest";
import { DEMO_ACTIVITY_SCHEDULE, DEMO_SITES, startDemoActivity, type DemoActivityPhone } from "./demo-activity";
import { fakeTimers } from "./demo-activity.testing";
import type { RequestKind } from "./requests";

const KIND_TYPE: Record<RequestKind, string> = { install: "App Install", uninstall: "App Uninstall", extend: "Extend Time" };

/** A phone that records what it sends, and a server that keeps requests Pending until answered. */
function recordingPhone(opts: { connected?: boolean; blockedUrls?: string[]; pending?: RequestKind[] } = {}) {
  const sent: { event: string; data: Record<string, unknown> }[] = [];
  const pending = new Set<RequestKind>(opts.pending ?? []);
  const phone: DemoActivityPhone & { connected: boolean } = {
    connected: opts.connected ?? true,
    state: {
      installed: new Set(["com.kidsportal.kids", "org.khanacademy.android", "com.duolingo", "org.school.homework1", "com.spotify.music"]),
      policy: { blockedUrls: opts.blockedUrls ?? [] },
    },
    requests: {
      ask: async (kind, packageName, o) => {
        pending.add(kind);
        sent.push({ event: "app_request", data: { requestType: KIND_TYPE[kind], packageName, ...o } });
        return `id-${sent.length}`;
      },
    },
    visit: async (url) => {
      const blocked = (opts.blockedUrls ?? []).some((b) => url.includes(b));
      sent.push({ event: "browser_visit", data: { url, blocked } });
      return { blocked };
    },
    reportBattery: async (batteryPercentage) => void sent.push({ event: "child_status", data: { batteryPercentage } }),
    notify: async (type, message) => void sent.push({ event: "notification", data: { type, message } }),
  };
  return { phone, sent, pending };
}

function start(phone: DemoActivityPhone, pending: Set<RequestKind>, clock: ReturnType<typeof fakeTimers>, battery = 76) {
  let r = 0;
  return startDemoActivity({
    phone,
    kidName: "Mia",
    used: ["org.khanacademy.android", "com.duolingo"],
    // Store apps only: the kids app and org.school.homework1 (installed from elsewhere) are not among them.
    titles: new Map([
      ["org.khanacademy.android", "Khan Academy"],
      ["com.duolingo", "Duolingo"],
      ["com.spotify.music", "Spotify"],
    ]),
    pendingKinds: async () => new Set(pending),
    installCandidates: async () => ["org.scratchjr.android", "com.nasa.kids"],
    batteryPercentage: battery,
    timers: clock.timers,
    now: clock.now,
    random: () => (r++ % 10) / 10,
  });
}

const of = (sent: { event: string; data: Record<string, unknown> }[], event: string) => sent.filter((s) => s.event === event);

describe("demo activity (issue 53 item 9)", () => {
  it("within a minute of connecting: all three kinds of request, visits, a notification, and the battery moves", async () => {
    const clock = fakeTimers();
    const { phone, sent, pending } = recordingPhone();
    const activity = start(phone, pending, clock);
    clock.advance(1_000);
    await activity.idle();
    expect(sent).toEqual([]); // not in the very first second: the phone has just connected

    clock.advance(59_000);
    await activity.idle();
    expect(of(sent, "app_request").map((s) => s.data.requestType)).toEqual(["Extend Time", "App Install", "App Uninstall"]);
    const [extend, install, uninstall] = of(sent, "app_request").map((s) => s.data);
    expect(["org.khanacademy.android", "com.duolingo"]).toContain(extend!.packageName);
    expect([15, 30]).toContain(extend!.minutes);
    expect(install!.packageName).toBe("org.scratchjr.android");
    // Uninstall: a store app the kid has but does not use, never the kids app itself or an app from elsewhere.
    expect(uninstall!.packageName).toBe("com.spotify.music");
    expect(of(sent, "browser_visit").length).toBeGreaterThanOrEqual(1);
    expect(of(sent, "browser_visit").map((s) => s.data.url)).toEqual(DEMO_SITES.slice(0, 4));
    expect(of(sent, "notification").length).toBeGreaterThanOrEqual(1);
    expect(of(sent, "notification")[0]!.data.message).toMatch(/^Mia opened (Khan Academy|Duolingo)\.$/);
    const levels = of(sent, "child_status").map((s) => s.data.batteryPercentage);
    expect(levels).toEqual([75, 74, 73]);
    // Every step of the first minute is due by then, on the default schedule.
    expect(Math.max(...DEMO_ACTIVITY_SCHEDULE.firstMinute.map((s) => s.atMs))).toBeLessThan(60_000);
    activity.stop();
  });

  it("a restart while requests wait for the parent does not ask again for the same kinds", async () => {
    const clock = fakeTimers();
    const { phone, sent, pending } = recordingPhone({ pending: ["extend", "uninstall"] });
    const activity = start(phone, pending, clock);
    clock.advance(60_000);
    await activity.idle();
    expect(of(sent, "app_request").map((s) => s.data.requestType)).toEqual(["App Install"]);

    // Later rounds: nothing is asked while every kind waits; once the parent answers one, that kind comes again.
    clock.advance(DEMO_ACTIVITY_SCHEDULE.everyMs * 3);
    await activity.idle();
    expect(of(sent, "app_request")).toHaveLength(1);
    pending.delete("extend");
    clock.advance(DEMO_ACTIVITY_SCHEDULE.everyMs * 3);
    await activity.idle();
    expect(of(sent, "app_request").map((s) => s.data.requestType)).toEqual(["App Install", "Extend Time"]);
    activity.stop();
  });

  it("then a round every few minutes, with bounded totals; stop() ends it", async () => {
    const clock = fakeTimers();
    const { phone, sent, pending } = recordingPhone();
    const activity = start(phone, pending, clock);
    clock.advance(60_000);
    await activity.idle();
    const afterMinute = sent.length;
    clock.advance(DEMO_ACTIVITY_SCHEDULE.everyMs - 60_000 + 36_000 - 1);
    await activity.idle();
    expect(sent.length).toBe(afterMinute); // quiet until the first round
    clock.advance(1);
    await activity.idle();
    expect(sent.length).toBeGreaterThan(afterMinute);

    // A week of rounds, the parent answering every request at once: the totals stay bounded.
    for (let i = 0; i < 7 * 24 * 15; i++) {
      pending.clear();
      clock.advance(DEMO_ACTIVITY_SCHEDULE.everyMs);
      await activity.idle();
    }
    expect(of(sent, "app_request")).toHaveLength(DEMO_ACTIVITY_SCHEDULE.maxRequests);
    expect(of(sent, "notification")).toHaveLength(DEMO_ACTIVITY_SCHEDULE.maxNotifications);
    expect(of(sent, "browser_visit")).toHaveLength(DEMO_ACTIVITY_SCHEDULE.maxVisits);
    // The battery keeps moving between low and full: it charged at least once.
    const levels = of(sent, "child_status").map((s) => Number(s.data.batteryPercentage));
    expect(Math.min(...levels)).toBeLessThanOrEqual(20);
    expect(levels.some((l, i) => i > 0 && l > levels[i - 1]!)).toBe(true);
    expect(Math.max(...levels.slice(levels.indexOf(Math.min(...levels))))).toBe(100);

    activity.stop();
    expect(clock.pending()).toBe(0);
    const stopped = sent.length;
    clock.advance(DEMO_ACTIVITY_SCHEDULE.everyMs * 10);
    await activity.idle();
    expect(sent.length).toBe(stopped);
  });

  it("a low battery is said once and the kid plugs the phone in; a blocked address is tried and reported", async () => {
    const clock = fakeTimers();
    const { phone, sent, pending } = recordingPhone({ blockedUrls: ["games.example"] });
    const activity = start(phone, pending, clock, 15);
    clock.advance(60_000);
    await activity.idle();
    expect(of(sent, "child_status").map((s) => s.data.batteryPercentage)).toEqual([14, 18, 22]);
    const notes = of(sent, "notification").map((s) => s.data);
    expect(notes.filter((n) => n.type === "low_battery")).toEqual([{ type: "low_battery", message: "Mia's phone battery is low." }]);
    // The third visit tries the blocked address; the phone blocks it and tells the parent.
    expect(of(sent, "browser_visit")[2]!.data).toEqual({ url: "https://games.example", blocked: true });
    expect(notes).toContainEqual({ type: "site_blocked", message: "Mia tried to open games.example, which is blocked." });
    activity.stop();
  });

  it("an offline phone skips its steps (nothing queues up for the reconnect)", async () => {
    const clock = fakeTimers();
    const { phone, sent, pending } = recordingPhone({ connected: false });
    const activity = start(phone, pending, clock);
    clock.advance(60_000);
    await activity.idle();
    expect(sent).toEqual([]);
    phone.connected = true;
    clock.advance(DEMO_ACTIVITY_SCHEDULE.everyMs);
    await activity.idle();
    expect(of(sent, "child_status")).toHaveLength(1);
    activity.stop();
  });
});
