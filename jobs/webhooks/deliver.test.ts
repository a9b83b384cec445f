import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import type { Mail } from "../../core/mail.server";
import { createTestDb, DIALECTS, type TestDb } from "../../db/index.testing";
import { createParent } from "../../db/queries/parents";
import { createEndpoint, enableEndpoint, recentDeliveries } from "../../db/queries/webhooks";
import { seedDemo } from "../../db/seed/index";
import { createLocalBus } from "../../device-service/bus";
import type { DeviceServiceDeps } from "../../device-service/context";
import { enqueueWebhookEvent, newWebhookSecret, sendTestEvent, webhookEndpointsChanged } from "../../device-service/webhooks";
import { createInProcessRunner } from "../in-process";
import { createProcessors } from "../processors/index";
import { deliverWebhook } from "./deliver";

/** A local receiver that verifies each delivery with standardwebhooks' own verify, and answers what the test says. */
interface Received {
  body: string;
  headers: IncomingHttpHeaders;
  verified: boolean;
  at: number;
}
function startReceiver(secret: () => string) {
  const received: Received[] = [];
  let answers: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      try {
        new Webhook(secret()).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      received.push({ body, headers: req.headers, verified, at: Date.now() });
      const status = answers.length ? answers.shift()! : 200;
      res.writeHead(status, status >= 300 && status < 400 ? { location: "http://127.0.0.1:9/elsewhere" } : {}).end("ok");
    });
  });
  return {
    received,
    answer(...codes: number[]) {
      answers = codes;
    },
    async listen() {
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const waitFor = async <T>(fn: () => Promise<T | undefined | null | false>, ms = 8_000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(DIALECTS)("webhook deliveries (Standard Webhooks, against a local receiver) on %s", (dialect) => {
  let t: TestDb;
  let deps: DeviceServiceDeps;
  let runner: ReturnType<typeof createInProcessRunner>;
  const logs: { level: string; msg: string; extra?: Record<string, unknown> }[] = [];
  const mails: Mail[] = [];
  let secret = "";
  const receiver = startReceiver(() => secret);
  let url = "";
  let demo: { id: string; email: string };
  let kidId = "";
  let otherId = "";

  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db);
    const p = await t.db
      .selectFrom("parents")
      .select(["id", "email"])
      .where("email", "=", "demo@kids-portal.test")
      .executeTakeFirstOrThrow();
    demo = p;
    kidId = (await t.db.selectFrom("kid_profiles").select("id").where("parent_id", "=", demo.id).executeTakeFirstOrThrow()).id;
    otherId = (await createParent(t.db, { email: "other-hooks@example.com", name: "Other", passwordHash: null })).id;
    url = await receiver.listen();
    runner = createInProcessRunner();
    deps = {
      db: t.db,
      bus: createLocalBus(),
      log: (level, msg, extra) => logs.push({ level, msg, extra }),
      jobs: runner,
      publicUrl: "http://portal.test",
      webhooks: { allowPrivate: true, retryDelaysMs: [40, 80, 120, 160], disableAfter: 2, timeoutMs: 2_000 },
      mail: async (m) => {
        mails.push(m);
        return true;
      },
    };
    await runner.start(createProcessors(deps));
  }, 60_000);
  afterAll(async () => {
    await runner?.close();
    await receiver.close();
    await t?.destroy();
  });
  afterEach(async () => {
    await t.db.deleteFrom("webhook_endpoints").execute();
    webhookEndpointsChanged(t.db);
    receiver.received.length = 0;
    receiver.answer();
  });

  async function endpoint(parentId: string, types: string[], target = url) {
    secret = newWebhookSecret();
    const id = await createEndpoint(t.db, parentId, { url: target, secret, eventTypes: types });
    webhookEndpointsChanged(t.db);
    return id;
  }
  const deliveriesOf = (endpointId: string) =>
    t.db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", endpointId).orderBy("created_at").execute();

  it("signs each delivery so standardwebhooks verifies it; the same event twice is sent once; only subscribed endpoints of the kid's parents get it", async () => {
    const id = await endpoint(demo.id, ["request.created", "limit.reached"]);
    const notSubscribed = await createEndpoint(t.db, demo.id, { url, secret: newWebhookSecret(), eventTypes: ["alert.created"] });
    const otherFamily = await createEndpoint(t.db, otherId, { url, secret: newWebhookSecret(), eventTypes: ["request.created"] });
    const event = {
      type: "request.created" as const,
      profileId: kidId,
      eventId: "msg_req_test1",
      data: { requestId: "test1", packageName: "com.example.game" },
    };
    expect(await enqueueWebhookEvent(deps, event)).toBe(1);
    expect(await enqueueWebhookEvent(deps, event)).toBe(0);
    await waitFor(async () => receiver.received.length >= 1);
    await new Promise((r) => setTimeout(r, 150));
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.verified).toBe(true);
    expect(got.headers["webhook-id"]).toBe("msg_req_test1");
    expect(Number(got.headers["webhook-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(got.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(JSON.parse(got.body)).toMatchObject({ type: "request.created", data: { requestId: "test1", profileId: kidId } });
    // A receiver with another secret refuses it: the signature is the endpoint's own.
    expect(() => new Webhook(newWebhookSecret()).verify(got.body, got.headers as Record<string, string>)).toThrow();
    const rows = await waitFor(async () => {
      const r = await deliveriesOf(id);
      return r[0]?.state === "delivered" && r;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status_code: 200, attempts: 1, next_at: null });
    expect(await deliveriesOf(notSubscribed)).toHaveLength(0);
    expect(await deliveriesOf(otherFamily)).toHaveLength(0);
    // The delivery log the page shows.
    expect((await recentDeliveries(t.db, demo.id)).get(id)).toEqual([
      expect.objectContaining({ state: "delivered", statusCode: 200, attempts: 1 }),
    ]);
    // The secret never reaches the log.
    expect(JSON.stringify(logs)).not.toContain(secret.slice(6));
  });

  it("retries a failed attempt with growing delays and the same webhook-id, until delivered", async () => {
    const id = await endpoint(demo.id, ["command.acknowledged"]);
    receiver.answer(500, 503, 302);
    await enqueueWebhookEvent(deps, {
      type: "command.acknowledged",
      profileId: kidId,
      eventId: "msg_cmd_retry",
      data: { commandId: "c1" },
    });
    const row = await waitFor(async () => {
      const r = (await deliveriesOf(id))[0];
      return r?.state === "delivered" && r;
    });
    expect(row).toMatchObject({ attempts: 4, status_code: 200 });
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set(["msg_cmd_retry"]));
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const gaps = receiver.received.slice(1).map((r, i) => r.at - receiver.received[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(75);
    expect(gaps[2]).toBeGreaterThanOrEqual(115);
  });

  it("sends a delivery at most once: two attempts racing for it send one request, and a delivered one is never sent again", async () => {
    const id = await endpoint(demo.id, ["limit.reached"]);
    // Queued without the runner: the test runs the attempts itself.
    const bare = { ...deps, jobs: undefined };
    await enqueueWebhookEvent(bare, { type: "limit.reached", profileId: kidId, eventId: "msg_limit_race", data: {} });
    const [row] = await deliveriesOf(id);
    await Promise.all([deliverWebhook(bare, row!.id), deliverWebhook(bare, row!.id), deliverWebhook(bare, row!.id)]);
    await deliverWebhook(bare, row!.id);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(id))[0]).toMatchObject({ state: "delivered", attempts: 1 });
  });

  it("switches an endpoint off after deliveries fail in a row, tells its parent by mail, and re-enabling starts afresh", async () => {
    mails.length = 0;
    const id = await endpoint(demo.id, ["request.created"], url.replace("/hooks", "/hooks?token=kept-out-of-mail"));
    receiver.answer(...Array<number>(20).fill(500));
    await enqueueWebhookEvent(deps, { type: "request.created", profileId: kidId, eventId: "msg_fail_1", data: {} });
    await waitFor(async () => (await deliveriesOf(id))[0]?.state === "failed");
    let ep = await t.db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(ep).toMatchObject({ enabled: 1, failure_count: 1 });
    expect(receiver.received).toHaveLength(5);
    await enqueueWebhookEvent(deps, { type: "request.created", profileId: kidId, eventId: "msg_fail_2", data: {} });
    await waitFor(
      async () => (await t.db.selectFrom("webhook_endpoints").select("enabled").where("id", "=", id).executeTakeFirst())?.enabled === 0,
    );
    ep = await t.db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(ep.disabled_reason).toBe("Switched off after 2 deliveries in a row failed.");
    expect(ep.disabled_at).not.toBeNull();
    const log = await deliveriesOf(id);
    expect(log.map((d) => [d.state, d.attempts, d.status_code])).toEqual([
      ["failed", 5, 500],
      ["failed", 5, 500],
    ]);
    await waitFor(async () => mails.length === 1);
    expect(mails[0]).toMatchObject({ to: demo.email, subject: "A webhook endpoint was switched off" });
    expect(mails[0]!.text).toContain("http://portal.test/webhooks");
    expect(mails[0]!.text).not.toContain("kept-out-of-mail");
    // Switched off: new events are not queued for it.
    expect(await enqueueWebhookEvent(deps, { type: "request.created", profileId: kidId, eventId: "msg_fail_3", data: {} })).toBe(0);
    // Re-enabled: failures forgotten, a test event is delivered.
    receiver.answer();
    expect(await enableEndpoint(t.db, demo.id, id)).toBe(true);
    expect(await enableEndpoint(t.db, otherId, id)).toBe(false);
    webhookEndpointsChanged(t.db);
    const before = receiver.received.length;
    const testId = await sendTestEvent(deps, id);
    await waitFor(async () => receiver.received.length > before);
    const last = receiver.received.at(-1)!;
    expect(last.verified).toBe(true);
    expect(last.headers["webhook-id"]).toBe(testId);
    expect(JSON.parse(last.body)).toMatchObject({ type: "webhook.test" });
  });

  it("refuses to deliver to a private address unless WEBHOOKS_ALLOW_PRIVATE: the receiver is never reached", async () => {
    const id = await endpoint(demo.id, ["request.created"]);
    const strict = { ...deps, jobs: undefined, webhooks: { ...deps.webhooks!, allowPrivate: false, retryDelaysMs: [] } };
    await enqueueWebhookEvent(strict, { type: "request.created", profileId: kidId, eventId: "msg_ssrf", data: {} });
    const [row] = await deliveriesOf(id);
    await deliverWebhook(strict, row!.id);
    expect(receiver.received).toHaveLength(0);
    const after = (await deliveriesOf(id))[0]!;
    expect(after.state).toBe("failed");
    expect(after.error).toMatch(/^address refused: 127\.0\.0\.1 is a loopback address/);
  });
});
