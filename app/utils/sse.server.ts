import type { Express, Request } from "express";
import { findLiveSession } from "#db/queries/sessions";
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

/**
 * GET /events: the parent's live stream. Events: `refresh` (a kid's state changed: device acknowledged,
 * delayed reload fired) with {profileId, reason}. Heartbeat comments keep proxies from closing it.
 */
export function mountSse(app: Express, services: AppServices): void {
  const open = new Map<string, number>();
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
    const unsubscribe = services.bus.subscribe((msg) => {
      if (msg.type === "parent.refresh" && msg.parentIds.includes(parentId)) {
        res.write(`event: refresh\ndata: ${JSON.stringify({ profileId: msg.profileId ?? null, reason: msg.reason })}\n\n`);
      }
    });
    const heartbeat = setInterval(() => res.write(": ping\n\n"), 25_000);
    req.on("close", () => {
      clearInterval(heartbeat);
      unsubscribe();
      release();
    });
    res.on("close", release);
  });
}
