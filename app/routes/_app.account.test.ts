import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTwoStep } from "#db/queries/accounts";
import { createParent, findParentById } from "#db/queries/parents";
import { REAUTH_MESSAGES } from "~/utils/reauth.server";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import { action } from "./_app.account";

/** Issue 52 finding 3: turning two-step verification off asks for the password (a borrowed session alone cannot). */
describe("/account: turning two-step off", () => {
  let rh: RouteHarness;
  beforeAll(async () => {
    rh = await startRouteHarness();
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const twoStepOf = async (id: string) => Boolean((await findParentById(rh.h.tdb.db, id))!.two_step_enabled);
  const turnOff = (fields: Record<string, string>, token?: string) =>
    rh.call(action, "/account", { token, form: { intent: "two-step", enabled: "false", ...fields } });

  it("without a password or with a wrong one is refused with a message, and two-step stays on; the right one turns it off", async () => {
    const id = rh.h.demo.id;
    await setTwoStep(rh.h.tdb.db, id, true);

    const none = await turnOff({});
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ twoStepError: REAUTH_MESSAGES.missing });
    expect(await twoStepOf(id)).toBe(true);

    const wrong = await turnOff({ password: "not-the-password" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ twoStepError: "The password is incorrect." });
    expect(await twoStepOf(id)).toBe(true);

    const right = await turnOff({ password: "demo-parent-2026" });
    expect(right.status).toBe(302);
    expect(await rh.toastOf(right)).toMatchObject({ type: "success", message: "Two-step verification is off." });
    expect(await twoStepOf(id)).toBe(false);

    // Turning it on needs no password.
    const on = await rh.call(action, "/account", { form: { intent: "two-step", enabled: "true" } });
    expect(on.status).toBe(302);
    expect(await twoStepOf(id)).toBe(true);
    await setTwoStep(rh.h.tdb.db, id, false);
  });

  it("an account without a password is told how to set one first", async () => {
    const parent = await createParent(rh.h.tdb.db, { email: "no-password@example.com", name: "No Password", passwordHash: null });
    await setTwoStep(rh.h.tdb.db, parent.id, true);
    const res = await turnOff({ password: "anything-at-all" }, await rh.h.sessionFor(parent.id));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ twoStepError: REAUTH_MESSAGES.noPassword });
    expect(await twoStepOf(parent.id)).toBe(true);
  });
});
