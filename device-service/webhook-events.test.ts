import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerDelegation, createDelegation } from "../db/queries/delegations";
import { createParent } from "../db/queries/parents";
import { createEndpoint } from "../db/queries/webhooks";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";
import { webhookEndpointsChanged } from "./webhooks";

/**
 * The webhook events wired to what the phones report (docs/webhooks.md): a kid's request, a command acknowledged and
 * a limit reached each become one delivery for the kid's parents' subscribed endpoints, none for another family's.
 */
const MIA = "DEMO-MIA-0001";
const ALL = ["request.created", "command.acknowledged", "limit.reached", "place.changed", "alert.created"];

describe("webhook events from the phones", () => {
  let h: Harness;
  let mine = "";
  let theirs = "";
  let delegates = "";
  beforeAll(async () => {
    h = await startHarness();
    mine = await createEndpoint(h.tdb.db, h.demo.id, {
      url: "https://hooks.invalid/in",
      secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0",
      eventTypes: ALL,
    });
    theirs = await createEndpoint(h.tdb.db, h.other.id, {
      url: "https://hooks.invalid/other",
      secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0",
      eventTypes: ALL,
    });
    // An accepted delegate of Mia's gets her events on their own endpoint too.
    const delegate = await createParent(h.tdb.db, {
      email: "delegate-hooks@kids-portal.test",
      name: "Delegate",
      passwordHash: null,
      emailVerified: true,
    });
    const d = await createDelegation(
      h.tdb.db,
      { id: h.demo.id, email: h.demo.email },
      {
        email: delegate.email,
        name: delegate.name,
        allowedKids: [(await h.kid(MIA)).profileId],
        accessLevel: "full",
      },
    );
    if (!d.ok) throw new Error(d.message);
    await answerDelegation(h.tdb.db, delegate, d.id, "Accepted");
    delegates = await createEndpoint(h.tdb.db, delegate.id, {
      url: "https://hooks.invalid/delegate",
      secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0",
      eventTypes: ["request.created"],
    });
    webhookEndpointsChanged(h.tdb.db);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });
  const deliveries = (endpointId: string, type: string) =>
    h.tdb.db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", endpointId).where("type", "=", type).execute();

  it("a kid's request: request.created with the request's id, once, to the owner's and the accepted delegate's endpoints", async () => {
    const mia = await h.kid(MIA);
    const phone = await h.phone(MIA);
    await phone.send("app_request", { packageName: "com.duolingo", requestType: "App Install" }, "req-webhook-1");
    await phone.send("app_request", { packageName: "com.duolingo", requestType: "App Install" }, "req-webhook-1");
    const [row] = await waitFor(async () => {
      const r = await deliveries(mine, "request.created");
      return r.length > 0 && r;
    });
    const request = await h.tdb.db
      .selectFrom("app_requests")
      .select("id")
      .where("message_id", "=", "req-webhook-1")
      .executeTakeFirstOrThrow();
    expect(row!.event_id).toBe(`msg_req_${request.id}`);
    expect(JSON.parse(row!.payload)).toMatchObject({
      type: "request.created",
      data: { requestId: request.id, profileId: mia.profileId, requestType: "App Install", packageName: "com.duolingo" },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await deliveries(mine, "request.created")).toHaveLength(1);
    expect((await deliveries(delegates, "request.created")).map((d) => d.event_id)).toEqual([`msg_req_${request.id}`]);
    expect(await deliveries(theirs, "request.created")).toHaveLength(0);
  });

  it("a command acknowledged: command.acknowledged with the command's id", async () => {
    const mia = await h.kid(MIA);
    await h.phone(MIA);
    const { commandId } = await h.caller(h.demo).kids.setSleepMode({ profileId: mia.profileId, sleepMode: true });
    const rows = await waitFor(async () => {
      const r = await deliveries(mine, "command.acknowledged");
      return r.some((d) => d.event_id === `msg_cmd_${commandId}`) && r;
    });
    expect(JSON.parse(rows.find((d) => d.event_id === `msg_cmd_${commandId}`)!.payload)).toMatchObject({
      data: { commandId, command: "APPLY_POLICY", profileId: mia.profileId },
    });
    expect(await deliveries(theirs, "command.acknowledged")).toHaveLength(0);
  });

  it("a limit reached: limit.reached when the phone stops an app for its limit, not again while it stays stopped", async () => {
    const mia = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const app = await h.tdb.db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", mia.deviceId)
      .where("is_app_disabled", "=", 0)
      .executeTakeFirstOrThrow();
    await phone.send("app_state", { packageName: app.package_name, disabled: true, reason: "Overuse" }, "limit-webhook-1");
    await phone.send("app_state", { packageName: app.package_name, disabled: true, reason: "Overuse" }, "limit-webhook-2");
    const [row] = await waitFor(async () => {
      const r = await deliveries(mine, "limit.reached");
      return r.length > 0 && r;
    });
    expect(JSON.parse(row!.payload)).toMatchObject({
      data: { packageName: app.package_name, reason: "Overuse", profileId: mia.profileId },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(await deliveries(mine, "limit.reached")).toHaveLength(1);
    expect(await deliveries(theirs, "limit.reached")).toHaveLength(0);
  });
});
