import { createECDH } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import webpush from "web-push";
import { generateVapidPair } from "../../../core/vapid.server";
import { decryptAes128gcm, startPushServiceDouble, verifyVapidJwt, type PushServiceDouble } from "./push-service.testing";

/** The double is the judge of the sender's tests: it must refuse what a push service or a browser would refuse. */
describe("the local push-service double", () => {
  it("decrypts RFC 8291's own example (Appendix A)", () => {
    const ua = createECDH("prime256v1");
    ua.setPrivateKey(Buffer.from("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94", "base64url"));
    const message = Buffer.from(
      "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
      "base64url",
    );
    const auth = Buffer.from("BTBZMqHH6r4Tts7J_aSIgg", "base64url");
    expect(decryptAes128gcm(message, ua, auth).toString("utf8")).toBe("When I grow up, I want to be a watermelon");
    expect(() => decryptAes128gcm(message, ua, Buffer.alloc(16))).toThrow();
  });

  it("verifies an ES256 VAPID JWT against k, and refuses one signed by another key", () => {
    const ours = generateVapidPair();
    const theirs = generateVapidPair();
    const { Authorization } = webpush.getVapidHeaders(
      "https://push.example",
      "mailto:a@b.test",
      ours.publicKey,
      ours.privateKey,
      "aes128gcm",
    );
    const [, jwt] = /t=([^,]+)/.exec(Authorization)!;
    expect(verifyVapidJwt(jwt!, ours.publicKey)).toMatchObject({ claims: { aud: "https://push.example", sub: "mailto:a@b.test" } });
    expect(verifyVapidJwt(jwt!, theirs.publicKey)).toEqual({ problem: "the JWT's signature does not verify with k" });
  });

  describe("over HTTP", () => {
    let push: PushServiceDouble;
    const vapid = { ...generateVapidPair(), subject: "mailto:a@b.test" };
    beforeAll(async () => {
      push = await startPushServiceDouble();
    });
    afterAll(() => push?.close());
    const post = (endpoint: string, r: { headers: Record<string, string | number>; body: Buffer | null }) =>
      fetch(endpoint, {
        method: "POST",
        headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)])),
        body: r.body,
      });

    it("takes a well-made message (201) and refuses one for another origin, another browser's keys or no signature", async () => {
      const sub = push.subscribe();
      const good = webpush.generateRequestDetails(sub, "hello", { vapidDetails: vapid, contentEncoding: "aes128gcm", TTL: 60 });
      expect((await post(sub.endpoint, good)).status).toBe(201);
      expect(push.received.at(-1)).toMatchObject({ payload: "hello", problem: null });

      // The JWT's audience must be the push service's origin: a token made for another service is refused.
      const elsewhere = webpush.getVapidHeaders(
        "https://fcm.googleapis.com",
        vapid.subject,
        vapid.publicKey,
        vapid.privateKey,
        "aes128gcm",
      );
      expect((await post(sub.endpoint, { ...good, headers: { ...good.headers, Authorization: elsewhere.Authorization } })).status).toBe(
        403,
      );

      // Encrypted to another browser's keys: the double cannot decrypt it.
      const other = push.subscribe();
      const wrongKeys = webpush.generateRequestDetails(other, "hello", { vapidDetails: vapid, contentEncoding: "aes128gcm", TTL: 60 });
      expect(
        (await post(sub.endpoint, { ...wrongKeys, headers: { ...wrongKeys.headers, Authorization: good.headers.Authorization! } })).status,
      ).toBe(400);

      const unsigned = { ...good, headers: { ...good.headers } };
      delete unsigned.headers.Authorization;
      expect((await post(sub.endpoint, unsigned)).status).toBe(401);
      expect(push.received.slice(-3).map((m) => m.payload)).toEqual([null, null, null]);
    });

    it("answers the statuses a test scripts, then 201; a 410'd subscription is gone (404)", async () => {
      const sub = push.subscribe();
      push.answer(sub.endpoint, 429, 410);
      const r = () => webpush.generateRequestDetails(sub, "x", { vapidDetails: vapid, contentEncoding: "aes128gcm", TTL: 60 });
      expect((await post(sub.endpoint, r())).status).toBe(429);
      expect((await post(sub.endpoint, r())).status).toBe(410);
      expect((await post(sub.endpoint, r())).status).toBe(404);
    });
  });
});
