/**
 * The parents of bench/mixed-load.ts: their families (parent i, kid i, phone i; one more family owns the fleet)
 * and their clicking loop. Each parent clicks the dashboard, the settings page and Lock now (confirmed), with a
 * think time between clicks; a command is timed from the post until the kid's phone receives the LOCK frame.
 * A Lock whose answer is not a success is checked for a half-done command: the phone must then NOT receive it.
 */
import { createHash } from "node:crypto";
import { nowIso } from "../core/ids.server";
import type { DB } from "../db/index";
import { fleetCredential, fleetDeviceId, type MiniPhone } from "../device-service/simulator/fleet";

export interface Family {
  parentId: string;
  kidId: string;
  serial: string;
}

/**
 * Parent i has kid i and phone i (fleetDeviceId(i)). The fleet's phones (`parents`…) belong to families of their
 * own, as real phones do: one kid per phone, two kids per parent. (All in one family, every phone's status and
 * usage writes moved that one kid's `view_rev`: one row every device process waited on, which no real fleet has.)
 */
export async function provisionFamilies(db: DB, parents: number, phones: number, enrolledAt: string): Promise<Family[]> {
  const ts = nowIso();
  const parentRow = (id: string) => ({
    id,
    email: `${id}@bench.test`,
    name: "Parent",
    password_hash: null,
    role: "parent" as const,
    created_at: ts,
    updated_at: ts,
  });
  const kidRow = (id: string, parentId: string) => ({
    id,
    parent_id: parentId,
    name: "Kid",
    birth_month: 1,
    birth_year: 2015,
    picture_mime: null,
    picture: null,
    created_at: ts,
    updated_at: ts,
  });
  const kidOf = (i: number) => (i < parents ? `mixk${i}` : `mixf${i}`);
  const parentOf = (i: number) => (i < parents ? `mixp${i}` : `mixq${Math.floor((i - parents) / 2)}`);
  const total = parents + phones;
  for (let i = 0; i < total; i += 500) {
    const idx = Array.from({ length: Math.min(500, total - i) }, (_, k) => i + k);
    const newParents = idx.filter((j) => j < parents || (j - parents) % 2 === 0 || j === i);
    await db
      .insertInto("parents")
      .values([...new Set(newParents.map(parentOf))].map(parentRow))
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    await db
      .insertInto("kid_profiles")
      .values(idx.map((j) => kidRow(kidOf(j), parentOf(j))))
      .execute();
    await db
      .insertInto("devices")
      .values(
        idx.map((j) => ({
          id: fleetDeviceId(j),
          profile_id: kidOf(j),
          serial_number: `FLEET-${j}`,
          credential_hash: createHash("sha256").update(fleetCredential(j)).digest("hex"),
          created_at: enrolledAt,
          updated_at: ts,
        })),
      )
      .execute();
  }
  return Array.from({ length: parents }, (_, i) => ({ parentId: `mixp${i}`, kidId: `mixk${i}`, serial: `FLEET-${i}` }));
}

export interface Parent extends Family {
  /** The web process this parent's browser talks to (a load balancer's choice). */
  base: string;
  cookie: string;
  phone: MiniPhone;
}

export interface Round {
  /** Page times by page: "dashboard" and "settings". */
  pages: { page: "dashboard" | "settings"; ms: number; cached: boolean }[];
  /** Lock now: post → LOCK at the phone. */
  commands: number[];
  /** Lock now: the post's own answer time. */
  posts: number[];
  failures: string[];
  /** Lock posts answered with an error (503 or an error toast): said so to the parent, phone checked. */
  refused: number;
  /** Refused posts whose command reached the phone anyway (half-done: never acceptable). */
  halfDone: number;
}

export interface LoopOptions {
  seconds: number;
  /** Mean think time; each pause is uniform in 0.5–1.5 × this. */
  thinkMs: number;
  /** How long a LOCK may take to reach the phone before it counts as lost. */
  deliveryMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The toast a redirect carries (Remix cookie session: base64 JSON, then the signature). */
export function toastOf(res: Response): { type: string; message: string } | null {
  const set = res.headers.getSetCookie().find((c) => c.startsWith("kp_toast="));
  if (!set) return null;
  const value = decodeURIComponent(set.slice("kp_toast=".length).split(";")[0]);
  try {
    const json = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as {
      __flash_toast__?: { type: string; message: string };
    };
    return json.__flash_toast__ ?? null;
  } catch {
    return null;
  }
}

/** Every parent clicks for `seconds`: dashboard, settings, Lock now (post → the phone receives the LOCK). */
export async function parentsLoop(parents: Parent[], o: LoopOptions): Promise<Round> {
  const r: Round = { pages: [], commands: [], posts: [], failures: [], refused: 0, halfDone: 0 };
  const deliveryMs = o.deliveryMs ?? 10_000;
  const page = async (p: Parent, kind: "dashboard" | "settings", path: string) => {
    const t0 = performance.now();
    const res = await fetch(`${p.base}${path}`, { headers: { Cookie: p.cookie, Accept: "text/html" }, redirect: "manual" });
    await res.arrayBuffer();
    r.pages.push({ page: kind, ms: performance.now() - t0, cached: /page-cache;desc="?hit/.test(res.headers.get("server-timing") ?? "") });
    if (res.status !== 200) r.failures.push(`${res.status} ${path.split("?")[0]}`);
  };
  const lock = async (p: Parent) => {
    const where = `/device-info?profile_id=${p.kidId}&serialNumber=${p.serial}`;
    let delivered = false;
    const received = new Promise<void>((resolve) => {
      p.phone.onCommand = () => {
        delivered = true;
        resolve();
      };
    });
    const t0 = performance.now();
    const res = await fetch(`${p.base}${where}&confirm=lock`, {
      method: "POST",
      headers: { Cookie: p.cookie, Origin: p.base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "lock", confirmed: "yes" }),
      redirect: "manual",
    });
    await res.arrayBuffer();
    r.posts.push(performance.now() - t0);
    const toast = toastOf(res);
    if ((res.status === 302 || res.status === 303) && toast?.type === "success") {
      if (await Promise.race([received.then(() => true), sleep(deliveryMs).then(() => false)])) r.commands.push(performance.now() - t0);
      else r.failures.push(`Lock answered "${toast.message}" but the LOCK did not reach the phone within ${deliveryMs / 1000} s`);
      return;
    }
    // Refused: the parent was told (a 503 page or an error toast). The command must not happen behind their back.
    r.refused++;
    r.failures.push(`${res.status} POST /device-info${toast ? ` (${toast.type}: ${toast.message})` : ""}`);
    await sleep(deliveryMs);
    if (delivered) {
      r.halfDone++;
      r.failures.push("half-done: a Lock answered as failed reached the phone");
    }
  };
  const steps = {
    dashboard: (p: Parent) => page(p, "dashboard", `/kids-device?profileId=${p.kidId}`),
    settings: (p: Parent) => page(p, "settings", `/global-settings?profileId=${p.kidId}&serialNumber=${p.serial}`),
    lock,
  };
  await clickRounds(parents, o, clickSteps(steps));
  for (const p of parents) p.phone.onCommand = undefined;
  return r;
}

/**
 * The round's steps: all three in turn, or (diagnosis, not for figures of record) MIXED_STEPS=lock — a comma list of
 * the steps' names — to measure one kind of click alone, e.g. a Lock's CPU on the web process (docs/performance.md).
 */
function clickSteps<S>(steps: Record<string, S>): S[] {
  const names = process.env.MIXED_STEPS?.split(",").map((n) => n.trim()) ?? Object.keys(steps);
  const unknown = names.filter((n) => !(n in steps));
  if (unknown.length || !names.length)
    throw new Error(`MIXED_STEPS names ${unknown.join(", ") || "nothing"}; the steps are ${Object.keys(steps).join(", ")}`);
  return names.map((n) => steps[n]);
}

/**
 * How a parent clicks (also the bare chain's, bench/bare-chain.ts): each clicker starts at a random moment within one
 * pause, then runs `steps` in turn, a pause (`thinkMs`, uniform 0.5–1.5×) after each, until `seconds` have passed.
 * A pause is cut short at the loop's end and a round stops between its steps: a loop ends at most one step after
 * `seconds` (a whole round of three pauses could run 31.5 s past it at 7 s think time, past the bench's deadline).
 */
export async function clickRounds<T>(
  clickers: T[],
  o: { seconds: number; thinkMs: number },
  steps: ((c: T) => Promise<void>)[],
): Promise<void> {
  const until = performance.now() + o.seconds * 1000;
  const going = () => performance.now() < until;
  const think = () => sleep(Math.max(0, Math.min(o.thinkMs * (0.5 + Math.random()), until - performance.now())));
  await Promise.all(
    clickers.map(async (c) => {
      await sleep(Math.random() * o.thinkMs);
      while (going()) {
        for (const step of steps) {
          if (!going()) break;
          await step(c);
          await think();
        }
      }
    }),
  );
}

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : Number.NaN;
};
