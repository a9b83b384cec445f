import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import { action, loader } from "./_app.webhooks";

/** /webhooks: the add form's messages, the secret shown once, and another parent's endpoint refused with nothing changed. */
describe("/webhooks", () => {
  let rh: RouteHarness;
  beforeAll(async () => {
    rh = await startRouteHarness();
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const add = (fields: Record<string, string | string[]>, token?: string) => {
    const form = new URLSearchParams({ intent: "add" });
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one);
    return rh.call(action, "/webhooks", { form, token });
  };
  const endpointsOf = (parentId: string) =>
    rh.h.tdb.db.selectFrom("webhook_endpoints").selectAll().where("parent_id", "=", parentId).execute();

  it.each([
    [{ url: "", events: "request.created" }, { url: ["Please enter the endpoint's address."] }],
    [{ url: "example.com/hook", events: "request.created" }, { url: ["Please enter a full address starting with https:// (or http://)."] }],
    [
      { url: "ftp://example.com/hook", events: "request.created" },
      { url: ["Please enter a full address starting with https:// (or http://)."] },
    ],
    [{ url: "https://example.com/hook" }, { events: ["Please choose at least one event."] }],
    [{ url: "https://example.com/hook", events: "everything" }, { "events[0]": ["Please choose events from the list."] }],
    [
      { url: "http://169.254.169.254/latest", events: "request.created" },
      {
        url: [
          "This address cannot receive webhooks: 169.254.169.254 is a link-local address (169.254.169.254); only public addresses are allowed.",
        ],
      },
    ],
    [
      { url: "http://[::ffff:127.0.0.1]:8080/in", events: "request.created" },
      {
        url: [
          "This address cannot receive webhooks: ::ffff:7f00:1 is a loopback (IPv4-mapped) address (::ffff:7f00:1); only public addresses are allowed.",
        ],
      },
    ],
  ])("refuses %j with a clear message, keeping what was typed, and stores nothing", async (fields, errors) => {
    const res = await add(fields);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } };
    expect(body.result.error).toEqual(errors);
    if (fields.url) expect(body.result.initialValue).toMatchObject({ url: fields.url });
    if ("events" in fields) expect(body.result.initialValue).toMatchObject({ events: fields.events });
    expect(await endpointsOf(rh.h.demo.id)).toHaveLength(0);
  });

  it("adds an endpoint: its whsec_ secret in the answer only, never in the page's data afterwards", async () => {
    const res = await add({ url: "https://93.184.215.14/kids", events: ["request.created", "limit.reached"] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { created: { url: string; secret: string } };
    expect(body.created.url).toBe("https://93.184.215.14/kids");
    expect(body.created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const [row] = await endpointsOf(rh.h.demo.id);
    expect(row).toMatchObject({ url: "https://93.184.215.14/kids", enabled: 1, secret: body.created.secret });
    expect(JSON.parse(row!.event_types)).toEqual(["request.created", "limit.reached"]);
    const page = await (await rh.call(loader, "/webhooks")).text();
    expect(page).toContain("https://93.184.215.14/kids");
    expect(page).not.toContain(body.created.secret);
    expect(page).not.toContain(body.created.secret.slice(6, 30));
  });

  it("another family's endpoint id is refused (404) for test, enable and delete, and nothing changes", async () => {
    const [mine] = await endpointsOf(rh.h.demo.id);
    await rh.h.tdb.db.updateTable("webhook_endpoints").set({ enabled: 0, disabled_reason: "off" }).where("id", "=", mine!.id).execute();
    for (const intent of ["test", "enable", "delete"]) {
      const res = await rh.call(action, "/webhooks", { form: { intent, id: mine!.id }, token: rh.otherToken });
      expect(res.status, intent).toBe(404);
    }
    const after = (await endpointsOf(rh.h.demo.id))[0]!;
    expect(after).toMatchObject({ id: mine!.id, enabled: 0, disabled_reason: "off" });
    expect(await rh.h.tdb.db.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", mine!.id).execute()).toHaveLength(0);
    // The owner's page shows it switched off, with the reason.
    const page = (await (await rh.call(loader, "/webhooks")).json()) as {
      endpoints: { id: string; enabled: boolean; disabledReason: string }[];
    };
    expect(page.endpoints).toEqual([expect.objectContaining({ id: mine!.id, enabled: false, disabledReason: "off" })]);
    // The owner: a switched-off endpoint takes no test event; turned back on, it does; deleted, it is gone.
    const refused = await rh.call(action, "/webhooks", { form: { intent: "test", id: mine!.id } });
    expect(await rh.toastOf(refused)).toMatchObject({ type: "error" });
    expect(await rh.toastOf(await rh.call(action, "/webhooks", { form: { intent: "enable", id: mine!.id } }))).toMatchObject({
      type: "success",
      message: "The endpoint is on again.",
    });
    expect(await rh.toastOf(await rh.call(action, "/webhooks", { form: { intent: "test", id: mine!.id } }))).toMatchObject({
      type: "success",
    });
    const log = await rh.h.tdb.db.selectFrom("webhook_deliveries").selectAll().where("endpoint_id", "=", mine!.id).execute();
    expect(log.map((d) => [d.type, d.state])).toEqual([["webhook.test", "pending"]]);
    await rh.call(action, "/webhooks", { form: { intent: "delete", id: mine!.id } });
    expect(await endpointsOf(rh.h.demo.id)).toHaveLength(0);
  });
});
