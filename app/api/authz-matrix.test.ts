import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthzFixture, type Fixture } from "../authz.testing";
import type { Ids } from "../authz-probes.testing";
import { API_CALLS } from "./calls";
import { operationId } from "./openapi";
import { API_ACTORS, API_PROBES, startApiHarness, type ApiHarness } from "./probes.testing";

/**
 * The API's authorisation matrix: every call of /api/v1 × every kind of caller (the owner, delegates accepted,
 * pending, revoked and rejected, another family, an operator, no token). Allowed: the call got past its checks (not
 * 401, 403 or 404); refused: 401 with is_logout (no token), 404 (a kid or thing not theirs: nothing revealed) or 403
 * (operators only). A call without a probe fails the first test.
 */
let fx: Fixture;
let h: ApiHarness;

beforeAll(async () => {
  fx = await createAuthzFixture();
  h = await startApiHarness(fx);
});
afterAll(async () => {
  await h?.close();
  await fx?.close();
});

describe("the API's authorisation matrix", () => {
  it("has a probe for every call, and a call for every probe", () => {
    const ids = API_CALLS.map(operationId).sort();
    expect(ids.filter((id) => !API_PROBES[id])).toEqual([]);
    expect(Object.keys(API_PROBES).filter((id) => !ids.includes(id))).toEqual([]);
  });

  for (const call of API_CALLS) {
    const id = operationId(call);
    it(`${call.method.toUpperCase()} ${call.path}: ${API_PROBES[id] ? API_PROBES[id].allow.join(", ") : "?"} allowed, everyone else refused`, async () => {
      const probe = API_PROBES[id]!;
      const outcome: Record<string, string> = {};
      for (const actor of API_ACTORS) {
        const extra = (await probe.prepare?.(fx)) ?? {};
        const ids = { ...fx.ids, delegationId: fx.delegationIds.pending, cardId: "", ...extra } as Ids;
        const r = await h.call(call, actor, probe.input(ids), probe.headers?.(h));
        expect(typeof r.body.respones_msg, `${actor}: ${JSON.stringify(r.body)}`).toBe("string");
        // Calls made without a token (sign-in) answer a wrong password 401 for anyone: only 403/404 would be refusals.
        const refused = r.status === 403 || r.status === 404 || (call.auth !== "none" && r.status === 401);
        if (call.auth !== "none" && r.status === 401) expect(r.body.is_logout).toBe(1);
        outcome[actor] = refused ? `refused ${r.status}` : "allowed";
        expect(r.status, `${actor}: ${r.status} ${JSON.stringify(r.body)}`).toBeLessThan(500);
      }
      const expected = Object.fromEntries(
        API_ACTORS.map((a) => [a, probe.allow.includes(a) ? "allowed" : outcome[a]!.startsWith("refused") ? outcome[a]! : "refused"]),
      );
      expect(outcome).toEqual(expected);
      if (call.auth !== "none") expect(outcome.none).toBe("refused 401");
    });
  }
});
