import type { Express, Request } from "express";
import { endedSessionIds, findLiveSession } from "#db/queries/sessions";
import { sessionCookie } from "#core/session-cookie.server";
import type { AppServices } from "~/load-context";

async function tokenOf(req: Request): Promise<string | null> {
  const auth = req.get("Authorization");
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim() || null;
  const value = await sessionCookie().parse(req.get("Cookie") ?? null);
  return typeof value === "string" && value ? value : null;
}

/** Live-update streams one session may hold open at once (several tabs); the next one is refused with 429. */
export const SSE_STREAMS_PER_SESSION = 10;

/** How often each process checks that the sessions of its open streams are still live (a lost `parent.streams.end`). */
export const SSE_SESSION_CHECK_MS = 60_000;

/**
 * Ends the live-update streams of these sessions, or of every session of these parents, on every web process
 * (the bus's `parent.streams.end`): at sign-out, password change, sign-out everywhere and revoked access. A browser
 * that reconnects is refused (its session ended) and sent to /login, or, when only its access to a kid ended, gets a
 * new stream. Never throws: the streams' own check (SSE_SESSION_CHECK_MS) ends them later if this is lost.
 */
export async function endStreams(
  services: Pick<AppServices, "bus" | "log">,
  target: { parentIds?: string[]; sessionIds?: string[] },
  reason: string,
): Promise<void> {
  try {
    await services.bus.publish({ type: "parent.streams.end", ...target, reason });
  } catch (err) {
    services.log("warn", "parent.streams.end not published", { reason, error: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * GET /events: the parent's live stream. Events: `refresh` (a kid's state changed: device acknowledged,
 * delayed reload fired) with {profileId, reason}; `alert` (a new alert for the parent: the header's bell reloads its count). Heartbeat comments keep proxies from closing it. A stream lives
 * only as long as its session: it ends when `endStreams` names it, and a check every SSE_SESSION_CHECK_MS (and after
 * the bus's Redis subscription came back, when messages may have been lost) ends those whose session was revoked or
 * expired.
 */
export function mountSse(app: Express, services: AppServices): void {
  const open = new Map<string, number>();
  const streams = new Set<{ sessionId: string; end: () => void }>();
  let checking = false;
  const endEnded = async () => {
    if (checking || !streams.size) return;
    checking = true;
    try {
      const ended = await endedSessionIds(services.db, [...new Set([...streams].map((s) => s.sessionId))]);
      for (const s of [...streams]) if (ended.has(s.sessionId)) s.end();
    } catch (err) {
      services.log("warn", "live streams' sessions not checked", { error: err instanceof Error ? err.message : String(err) });
    } finally {
      checking = false;
    }
  };
  setInterval(() => void endEnded(), SSE_SESSION_CHECK_MS).unref();
  services.bus.subscribe((msg) => {
    if (msg.type === "bus.resubscribed") void endEnded();
  });
  app.get("/events", async (req, res) => {
    const token = await tokenOf(req);
    const e = services.env;
    const session = token
      ? await findLiveSession(services.db, token, { idleMinutes: e.SESSION_IDLE_MINUTES, absoluteDays: e.SESSION_ABSOLUTE_DAYS })
      : undefined;
    if (!session) {
      res.status(401).json({ respones_msg: "Please sign in again.", is_logout: 1 });
      return;
    }
    if (req.destroyed || res.writableEnded) return; // gone while we looked the session up
    const held = open.get(session.id) ?? 0;
    if (held >= SSE_STREAMS_PER_SESSION) {
      res.status(429).json({
        respones_msg: `Too many live-update connections are open for this sign-in (at most ${SSE_STREAMS_PER_SESSION}). Please close some tabs.`,
      });
      return;
    }
    open.set(session.id, held + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (open.get(session.id) ?? 1) - 1;
      if (n > 0) open.set(session.id, n);
      else open.delete(session.id);
    };
    res.writeHead(200, {
      "Content-Type": "text/event-stream",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    });
    res.write("retry: 3000\n\n");
    const parentId = session.parent_id;
    const stream = { sessionId: session.id, end: () => stop(true) };
    const unsubscribe = services.bus.subscribe((msg) => {
      if (msg.type === "parent.refresh" && msg.parentIds.includes(parentId) && msg.reason === "alert.new") {
        // A new alert (jobs/alerts/deliver.ts, the centre channel): the header's bell reloads its count (AlertBell).
        res.write(`event: alert\ndata: ${JSON.stringify({ profileId: msg.profileId ?? null })}\n\n`);
      } else if (msg.type === "parent.refresh" && msg.parentIds.includes(parentId)) {
        res.write(`event: refresh\ndata: ${JSON.stringify({ profileId: msg.profileId ?? null, reason: msg.reason })}\n\n`);
      } else if (msg.type === "parent.streams.end" && (msg.sessionIds?.includes(session.id) || msg.parentIds?.includes(parentId))) {
        stop(true);
      }
    });
    const heartbeat = setInterval(() => res.write(": ping\n\n"), 25_000);
    let stopped = false;
    function stop(end: boolean) {
      if (stopped) return;
      stopped = true;
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(stream);
      release();
      if (end && !res.writableEnded) res.end();
    }
    streams.add(stream);
    req.on("close", () => stop(false));
    res.on("close", () => stop(false));
  });
}
