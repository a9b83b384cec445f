import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { DIALECTS } from "../db/index.testing";
import { SimulatedPhone } from "./simulator/phone";
import { startHarness, TEST_API_KEY, type Harness } from "../server/harness.testing";

// A phone joins: enrollment with a one-time token, then the socket protocol it speaks.
const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

async function rawSocket(
  url: string,
  credential: string,
): Promise<{
  ws: WebSocket;
  frames: { event: string; id: string; data: Record<string, unknown> }[];
  next: (event: string) => Promise<{ event: string; id: string; data: Record<string, unknown> }>;
}> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/device-socket`, { headers: { Authorization: `Bearer ${credential}` } });
  const frames: { event: string; id: string; data: Record<string, unknown> }[] = [];
  const waiters: { event: string; resolve: (f: (typeof frames)[number]) => void }[] = [];
  const unread: (typeof frames)[number][] = [];
  ws.on("message", (raw) => {
    const f = JSON.parse(raw.toString());
    frames.push(f);
    const i = waiters.findIndex((w) => w.event === f.event);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(f);
    else unread.push(f);
  });
  await new Promise((r, j) => (ws.once("open", r), ws.once("error", j)));
  const next = (event: string) => {
    const i = unread.findIndex((f) => f.event === event);
    if (i >= 0) return Promise.resolve(unread.splice(i, 1)[0]);
    return new Promise<(typeof frames)[number]>((resolve) => waiters.push({ event, resolve }));
  };
  return { ws, frames, next };
}

describe.each(DIALECTS)("device service: enrollment and socket protocol on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  describe("enrollment", () => {
    it("exchanges a one-time token for a credential whose hash only is stored; a reused token is refused", async () => {
      const { profileId } = await h.kid(MIA);
      const { token, enrollUrl, expiresAt } = await h.caller(h.demo).enrollment.createToken({ profileId });
      expect(enrollUrl).toContain(encodeURIComponent(token));
      expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
      const hardware = { serialNumber: "NEW-PHONE-0100", brand: "Nokia", model: "G42" };
      const res = await fetch(`${h.url}/device-api/enroll`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token, hardware }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { credential: string; deviceId: string } };
      const row = await h.tdb.db.selectFrom("devices").selectAll().where("serial_number", "=", "NEW-PHONE-0100").executeTakeFirstOrThrow();
      expect(row.profile_id).toBe(profileId);
      expect(row.brand).toBe("Nokia");
      expect(row.credential_hash).toBe(createHash("sha256").update(body.data.credential).digest("hex"));
      expect(row.credential_hash).not.toContain(body.data.credential.split(".")[1]);
      const again = await fetch(`${h.url}/device-api/enroll`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token, hardware }),
      });
      expect(again.status).toBe(401);
      expect(((await again.json()) as { respones_msg: string }).respones_msg).toMatch(/already been used/);
    });

    it("refuses another family's parent a token for a kid not theirs", async () => {
      const { profileId } = await h.kid(MIA);
      await expect(h.caller(h.other).enrollment.createToken({ profileId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("a phone of another family cannot be taken over with a token of this family", async () => {
      const { profileId } = await h.kid(MIA);
      const { token } = await h.caller(h.demo).enrollment.createToken({ profileId });
      const res = await fetch(`${h.url}/device-api/enroll`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token, hardware: { serialNumber: h.other.serialNumber } }),
      });
      // The same answer as a made-up code (abuse.test.ts: no oracle for other families' serial numbers).
      expect(res.status).toBe(401);
    });

    it("kids app parent login needs the API key header, then lists kids and mints an enrollment token", async () => {
      const body = JSON.stringify({
        email: "demo@kids-portal.test",
        password: "demo-parent-2026",
        profileId: (await h.kid(LEO)).profileId,
      });
      const noKey = await fetch(`${h.url}/device-api/kids/parent/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      });
      expect(noKey.status).toBe(401);
      const badPw = await fetch(`${h.url}/device-api/kids/parent/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-api-key": TEST_API_KEY },
        body: JSON.stringify({ email: "demo@kids-portal.test", password: "nope-nope" }),
      });
      expect(badPw.status).toBe(401);
      const ok = await fetch(`${h.url}/device-api/kids/parent/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-api-key": TEST_API_KEY },
        body,
      });
      expect(ok.status).toBe(200);
      const r = (await ok.json()) as { data: { kidsList: { profile_name: string }[]; enrollment: { token: string } } };
      expect(r.data.kidsList.map((k) => k.profile_name).sort()).toEqual(["Leo", "Mia"]);
      expect(r.data.enrollment.token).toMatch(/^enr_/);
    });
  });

  describe("socket protocol", () => {
    it("refuses a bad credential before the upgrade with HTTP 401; the simulator gives up instead of retrying", async () => {
      const ws = new WebSocket(`${h.url.replace("http", "ws")}/device-socket`, { headers: { Authorization: "Bearer nope.nope" } });
      ws.on("error", () => {});
      const status = await new Promise<number>((r) =>
        ws.on("unexpected-response", (_req, res) => (r(res.statusCode ?? 0), ws.terminate())),
      );
      expect(status).toBe(401);
      const phone = new SimulatedPhone({ baseUrl: h.url, serialNumber: LEO, credential: "nope.nope", backoffBaseMs: 1 });
      const gone = new Promise((r) => phone.once("disconnected", r));
      await expect(phone.connect()).rejects.toThrow(/HTTP 401/);
      await gone;
      expect(phone.connected).toBe(false);
      expect((phone as unknown as { reconnectTimer?: NodeJS.Timeout }).reconnectTimer).toBeUndefined();
      await phone.close();
    });

    it("wants child_status first, refuses malformed, invalid, binary and oversized frames without dropping the phone", async () => {
      const phone = await h.phone(LEO, { connect: false });
      const s = await rawSocket(h.url, phone.credential!);
      await s.next("hello");
      s.ws.send(JSON.stringify({ event: "location", id: "x1", data: { latitude: 1, longitude: 2, deviceTime: new Date().toISOString() } }));
      expect((await s.next("error")).data.code).toBe("STATUS_FIRST");
      s.ws.send("{not json");
      expect((await s.next("error")).data.code).toBe("MALFORMED");
      s.ws.send(JSON.stringify({ event: "child_status", id: "x2", data: { batteryPercentage: 400 } }));
      expect((await s.next("error")).data.code).toBe("INVALID");
      s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect((await s.next("error")).data.code).toBe("BINARY");
      s.ws.send(JSON.stringify({ event: "notification", id: "x3", data: { message: "a".repeat(300 * 1024), type: "t" } }));
      expect((await s.next("error")).data.code).toBe("TOO_LARGE");
      s.ws.send(
        JSON.stringify({
          event: "child_status",
          id: "x4",
          data: { batteryPercentage: 50, wifiConnected: true, kidsAppStatus: "Healthy", appVersion: "3.9.0", protectionState: true },
        }),
      );
      const ack = await s.next("ack");
      expect(ack.id).toBe("x4");
      expect(s.ws.readyState).toBe(WebSocket.OPEN);
      expect(h.logs.some((l) => l.msg === "device frame refused")).toBe(true);
      s.ws.close();
    });
  });
});
