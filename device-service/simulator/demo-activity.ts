import type { RequestKind } from "./requests";

// ---- demo activity (issue 53 item 9): what a demo kid does with the phone, so a newcomer's first minute has life ----

/** One thing the kid's phone does: a battery step, a web visit, a notification, or a request of one kind. */
export type DemoAction = "battery" | "visit" | "notification" | `request:${RequestKind}`;

export interface DemoActivitySchedule {
  /** The first minute: each action this many ms after the phone connected (before the phone's own offset). */
  firstMinute: { atMs: number; action: DemoAction }[];
  /** Then one round every this many ms: a battery step, a visit, a request (in turn) and every other round a notification. */
  everyMs: number;
  /** At most this many of each a phone sends in one run (the database does not grow without limit). */
  maxRequests: number;
  maxNotifications: number;
  maxVisits: number;
}

/**
 * The default: all three kinds of request, four visits, two notifications and three battery steps in the first 40
 * seconds after the phone connected (so within a minute of `npm start`), then a round every four minutes.
 */
export const DEMO_ACTIVITY_SCHEDULE: DemoActivitySchedule = {
  firstMinute: [
    { atMs: 2_000, action: "battery" },
    { atMs: 3_000, action: "visit" },
    { atMs: 5_000, action: "request:extend" },
    { atMs: 9_000, action: "notification" },
    { atMs: 12_000, action: "visit" },
    { atMs: 15_000, action: "request:install" },
    { atMs: 19_000, action: "battery" },
    { atMs: 22_000, action: "visit" },
    { atMs: 25_000, action: "request:uninstall" },
    { atMs: 29_000, action: "notification" },
    { atMs: 33_000, action: "visit" },
    { atMs: 36_000, action: "battery" },
  ],
  everyMs: 4 * 60_000,
  maxRequests: 12,
  maxNotifications: 24,
  maxVisits: 400,
};

/** Web addresses a demo kid opens, in turn: sites for children and school. */
export const DEMO_SITES = [
  "https://www.bbc.co.uk/cbbc",
  "https://kids.nationalgeographic.com/animals",
  "https://www.wikipedia.org/",
  "https://scratch.mit.edu/projects",
  "https://www.khanacademy.org/math",
  "https://spaceplace.nasa.gov/",
  "https://www.coolmathgames.com/",
  "https://www.duolingo.com/learn",
] as const;
/** Every this many visits, the kid tries an address the parent blocked (when the phone's policy blocks any). */
export const DEMO_BLOCKED_VISIT_EVERY = 3;

/** The battery: down a percent a step, plugged in at or below LOW, up CHARGE_STEP a step while charging, unplugged when full. */
export const DEMO_BATTERY = { low: 20, chargeStep: 4 } as const;

const REMARKS: Record<RequestKind, string> = {
  extend: "Can I have a bit longer? I'm nearly done.",
  install: "Can I have this for school?",
  uninstall: "I don't use this any more.",
};
const KINDS: RequestKind[] = ["extend", "install", "uninstall"];

/** The phone as the activity needs it (simulator/phone.ts SimulatedPhone; a recording double in the tests). */
export interface DemoActivityPhone {
  readonly connected: boolean;
  readonly state: { installed: Set<string>; policy: unknown };
  readonly requests: { ask(kind: RequestKind, packageName: string, opts: { minutes?: number; remarks?: string }): Promise<string> };
  visit(url: string, at?: Date): Promise<{ blocked: boolean }>;
  reportBattery(percentage: number): Promise<void>;
  notify(type: string, message: string, packageName?: string): Promise<void>;
}

export interface DemoTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: DemoTimers = {
  set: (fn, ms) => setTimeout(fn, ms).unref(),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface DemoActivityOptions {
  phone: DemoActivityPhone;
  /** The kid's first name, for the notifications' text. */
  kidName: string;
  /** The apps the kid uses (the usage simulation's): extra time is asked for these. */
  used: string[];
  /** Store titles of the phone's store apps (not system apps): the notifications' text, and what the kid may ask to uninstall. */
  titles: Map<string, string>;
  /** The kinds of request of this phone that wait for the parent's answer (read from the portal's database). */
  pendingKinds(): Promise<Set<RequestKind>>;
  /** Apps from the store the kid does not have (install requests pick one). */
  installCandidates(): Promise<string[]>;
  batteryPercentage: number;
  /** Shifts the first minute (phones of one family do not all act in the same second). */
  offsetMs?: number;
  schedule?: DemoActivitySchedule;
  timers?: DemoTimers;
  now?: () => Date;
  random?: () => number;
  /** A step the server refused or that failed (the activity goes on). */
  onError?: (err: unknown, action: DemoAction) => void;
}

export interface DemoActivity {
  /** What the phone has sent so far (tests, and the bounds). */
  readonly sent: { requests: number; notifications: number; visits: number; battery: number };
  /** Resolves when the steps due so far are done. */
  idle(): Promise<void>;
  stop(): void;
}

/**
 * Starts a demo phone's activity: the first minute's steps, then a round every `everyMs`. Everything goes through
 * the phone, i.e. the real device protocol (app_request, browser_visit, notification, child_status frames), as a
 * real phone sends it. A request of a kind that already waits for the parent is not sent again (a restart does not
 * pile up duplicates); each phone sends at most `max…` requests, notifications and visits in one run. Steps run one
 * after another; a step while the phone is offline is skipped.
 */
export function startDemoActivity(o: DemoActivityOptions): DemoActivity {
  const schedule = o.schedule ?? DEMO_ACTIVITY_SCHEDULE;
  const timers = o.timers ?? realTimers;
  const now = o.now ?? (() => new Date());
  const random = o.random ?? Math.random;
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];
  const sent = { requests: 0, notifications: 0, visits: 0, battery: 0 };
  const handles = new Set<unknown>();
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();
  let battery = o.batteryPercentage;
  let charging = false;
  let site = 0;
  let round = 0;
  let notes = 0;

  const title = (pkg: string) => o.titles.get(pkg) ?? pkg;
  const notify = async (type: string, message: string, pkg?: string) => {
    if (sent.notifications >= schedule.maxNotifications) return;
    sent.notifications++;
    await o.phone.notify(type, message, pkg);
  };

  const steps: Record<"battery" | "visit" | "notification", () => Promise<void>> = {
    async battery() {
      if (charging) battery = Math.min(100, battery + DEMO_BATTERY.chargeStep);
      else battery = Math.max(1, battery - 1);
      sent.battery++;
      await o.phone.reportBattery(battery);
      if (!charging && battery <= DEMO_BATTERY.low) {
        // Low: the phone says so, then the kid plugs it in (the next steps charge it).
        charging = true;
        await notify("low_battery", `${o.kidName}'s phone battery is low.`);
      } else if (charging && battery >= 100) {
        charging = false;
        await notify("battery_full", `${o.kidName}'s phone is fully charged.`);
      }
    },
    async visit() {
      if (sent.visits >= schedule.maxVisits) return;
      const blockedList = (o.phone.state.policy as { blockedUrls?: string[] } | undefined)?.blockedUrls ?? [];
      const n = site++;
      const tryBlocked = blockedList.length > 0 && n % DEMO_BLOCKED_VISIT_EVERY === DEMO_BLOCKED_VISIT_EVERY - 1;
      const url = tryBlocked ? `https://${pick(blockedList)!}` : DEMO_SITES[n % DEMO_SITES.length]!;
      sent.visits++;
      const { blocked } = await o.phone.visit(url, now());
      if (blocked) await notify("site_blocked", `${o.kidName} tried to open ${new URL(url).host}, which is blocked.`);
    },
    async notification() {
      // The kid opens one of the apps they use: the phone tells the parent.
      const pkg = o.used[notes++ % Math.max(1, o.used.length)];
      if (pkg) await notify("app_opened", `${o.kidName} opened ${title(pkg)}.`, pkg);
    },
  };

  const request = async (kind: RequestKind) => {
    if (sent.requests >= schedule.maxRequests) return;
    if ((await o.pendingKinds()).has(kind)) return;
    let pkg: string | undefined;
    if (kind === "extend") pkg = pick(o.used);
    else if (kind === "install") pkg = pick((await o.installCandidates()).slice(0, 10));
    // Uninstall: a store app the kid has but does not use (never the kids app, a system app or one from elsewhere).
    else pkg = pick([...o.phone.state.installed].filter((p) => o.titles.has(p) && !p.startsWith("com.kidsportal") && !o.used.includes(p)));
    if (!pkg) return;
    sent.requests++;
    await o.phone.requests.ask(kind, pkg, { remarks: REMARKS[kind], ...(kind === "extend" ? { minutes: pick([15, 30])! } : {}) });
  };

  const run = (action: DemoAction) => {
    chain = chain.then(async () => {
      if (stopped || !o.phone.connected) return;
      try {
        if (action.startsWith("request:")) await request(action.slice("request:".length) as RequestKind);
        else await steps[action as keyof typeof steps]();
      } catch (err) {
        o.onError?.(err, action);
      }
    });
  };

  const at = (ms: number, fn: () => void) => {
    const h = timers.set(() => {
      handles.delete(h);
      if (!stopped) fn();
    }, ms);
    handles.add(h);
  };

  const offset = o.offsetMs ?? 0;
  for (const s of schedule.firstMinute) at(offset + s.atMs, () => run(s.action));
  const last = Math.max(0, ...schedule.firstMinute.map((s) => s.atMs));
  const nextRound = () => {
    const r = round++;
    run("battery");
    run("visit");
    run(`request:${KINDS[r % KINDS.length]!}`);
    if (r % 2 === 1) run("notification");
    at(schedule.everyMs, nextRound);
  };
  at(offset + last + schedule.everyMs, nextRound);

  return {
    sent,
    idle: async () => {
      // A step may queue another behind it: wait until the chain stands still.
      let seen: Promise<void>;
      do {
        seen = chain;
        await seen;
      } while (seen !== chain);
    },
    stop() {
      stopped = true;
      for (const h of handles) timers.clear(h);
      handles.clear();
    },
  };
}
