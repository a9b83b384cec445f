import { generateKeyPairSync } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFcmTransport } from "./commands/push";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

/** A local HTTP double of Google's token endpoint and FCM HTTP v1 (a SaaS that cannot be reached from tests). */
function fcmDouble() {
  const calls: { path: string; auth?: string; body: string }[] = [];
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    calls.push({ path: req.url ?? "", auth: req.headers.authorization, body });
    if (req.url === "/token") {
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ access_token: "ya29.test", expires_in: 3600 }));
    } else if (req.url === "/v1/projects/kids-portal-test/messages:send") {
      if (req.headers.authorization !== "Bearer ya29.test") return res.writeHead(401).end();
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ name: "projects/kids-portal-test/messages/1" }));
    } else res.writeHead(404).end();
  });
  return { server, calls };
}

describe("FCM HTTP v1 push transport", () => {
  const double = fcmDouble();
  let base = "";
  let h: Harness;
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();

  beforeAll(async () => {
    await new Promise<void>((r) => double.server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(double.server.address() as { port: number }).port}`;
    const log = () => {};
    h = await startHarness({
      push: createFcmTransport(
        {
          projectId: "kids-portal-test",
          clientEmail: "svc@kids-portal-test.iam.gserviceaccount.com",
          privateKey: pem.replace(/\n/g, "\\n"),
          apiBase: base,
          tokenUri: `${base}/token`,
        },
        log,
      ),
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    double.server.close();
  });

  it("wakes an offline phone through FCM with a signed service-account assertion, and marks the command sent", async () => {
    const { deviceId } = await h.kid("DEMO-MIA-0001");
    await h.tdb.db.updateTable("devices").set({ fcm_token: "fcm-device-token-1" }).where("id", "=", deviceId).execute();
    const r = await h.caller(h.demo).device.sendFcmCommand({ serialNumber: "DEMO-MIA-0001", action: "Ring a Phone" });
    await waitFor(async () => double.calls.some((c) => c.path.endsWith("messages:send")));
    const tokenCall = double.calls.find((c) => c.path === "/token")!;
    const assertion = new URLSearchParams(tokenCall.body).get("assertion")!;
    expect(decodeJwt(assertion)).toMatchObject({
      iss: "svc@kids-portal-test.iam.gserviceaccount.com",
      aud: `${base}/token`,
      scope: "https://www.googleapis.com/auth/firebase.messaging",
    });
    const send = JSON.parse(double.calls.find((c) => c.path.endsWith("messages:send"))!.body);
    expect(send.message).toMatchObject({
      token: "fcm-device-token-1",
      data: { commandId: r.commandId, type: "RING" },
      android: { priority: "high" },
    });
    const row = await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", r.commandId).executeTakeFirstOrThrow();
    expect(row.status).toBe("sent");
    // The phone connects afterwards and still gets the command over the socket, then acknowledges it.
    const phone = await h.phone("DEMO-MIA-0001");
    await phone.waitForCommand("RING");
    await waitFor(
      async () =>
        (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", r.commandId).executeTakeFirstOrThrow()).status ===
        "acknowledged",
    );
  });

  it("a phone without an FCM token is skipped and the command waits queued", async () => {
    const { deviceId } = await h.kid("DEMO-LEO-0002");
    const before = double.calls.length;
    const r = await h.caller(h.demo).device.issueCommand({ serialNumber: "DEMO-LEO-0002", type: "LOCK" });
    expect(double.calls.length).toBe(before);
    expect(
      (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", r.commandId).executeTakeFirstOrThrow()).status,
    ).toBe("queued");
    expect(deviceId).toBeTruthy();
  });
});
