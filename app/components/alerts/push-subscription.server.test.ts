import { createECDH, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { endpointProblem, hostAllowed, KNOWN_PUSH_HOSTS, pushEndpointRules, subscriptionSchema } from "./push-subscription.server";

const keys = () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
};
const production = pushEndpointRules({ NODE_ENV: "production", PUSH_ENDPOINT_HOSTS: "", PUSH_ALLOW_INSECURE_ENDPOINTS: false });
const messages = (input: Record<string, unknown>, rules = production) => {
  const r = subscriptionSchema(rules).safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe("a browser's push subscription", () => {
  it.each([
    "https://fcm.googleapis.com/fcm/send/abc:def",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    "https://web.push.apple.com/QGuQyavXutnMH",
    "https://api.push.apple.com/3/device/x",
  ])("is taken from a known push service: %s", (endpoint) => {
    expect(messages({ endpoint, ...keys() })).toEqual([]);
  });

  it.each([
    ["http://fcm.googleapis.com/fcm/send/x", "not a secure (https) address"],
    ["https://evil.example/collect", "(evil.example) is not one we send notifications through"],
    ["https://fcm.googleapis.com.evil.example/x", "is not one we send notifications through"],
    ["https://notify.windows.com.evil/x", "is not one we send notifications through"],
    ["https://fcm.googleapis.com:8443/x", "(fcm.googleapis.com:8443) is not one"],
    ["https://user:pw@fcm.googleapis.com/x", "carries a user name"],
    ["http://127.0.0.1:4000/push/x", "not a secure (https) address"],
    ["http://169.254.169.254/latest/meta-data", "not a secure (https) address"],
    ["not a url", "is not an address"],
  ])("is refused with a clear message when its endpoint is not a push service: %s", (endpoint, message) => {
    const got = messages({ endpoint, ...keys() });
    expect(got).toHaveLength(1);
    expect(got[0]).toContain(message);
    expect(got[0]).toContain("notifications were not turned on");
  });

  it("refuses keys of the wrong length or not on the curve", () => {
    const good = keys();
    const endpoint = "https://fcm.googleapis.com/fcm/send/x";
    expect(messages({ endpoint, ...good, auth: randomBytes(12).toString("base64url") })[0]).toMatch(/push keys are not valid/);
    expect(messages({ endpoint, ...good, p256dh: randomBytes(65).toString("base64url") })[0]).toMatch(/push keys are not valid/);
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 4;
    expect(messages({ endpoint, ...good, p256dh: offCurve.toString("base64url") })[0]).toMatch(/push keys are not valid/);
    expect(messages({ endpoint, ...good, p256dh: "not base64!" })[0]).toMatch(/push keys are not valid/);
    // Padded base64url (some browsers) is the same key.
    expect(subscriptionSchema(production).parse({ endpoint, ...good, auth: `${good.auth}==` }).auth).toBe(good.auth);
  });

  it("may point at a local push service only in tests or with PUSH_ALLOW_INSECURE_ENDPOINTS", () => {
    const local = "http://127.0.0.1:4567/push/abc";
    expect(endpointProblem(local, production)).toMatch(/https/);
    expect(
      endpointProblem(local, pushEndpointRules({ NODE_ENV: "test", PUSH_ENDPOINT_HOSTS: "", PUSH_ALLOW_INSECURE_ENDPOINTS: false })),
    ).toBeNull();
    const allowed = pushEndpointRules({ NODE_ENV: "production", PUSH_ENDPOINT_HOSTS: "", PUSH_ALLOW_INSECURE_ENDPOINTS: true });
    expect(endpointProblem("http://localhost:9/push/x", allowed)).toBeNull();
    expect(endpointProblem("http://10.0.0.5/push/x", allowed)).toMatch(/https/);
  });

  it("may point only at the hosts PUSH_ENDPOINT_HOSTS lists, when it is set", () => {
    const rules = pushEndpointRules({
      NODE_ENV: "production",
      PUSH_ENDPOINT_HOSTS: "push.example.org, *.corp.example",
      PUSH_ALLOW_INSECURE_ENDPOINTS: false,
    });
    expect(endpointProblem("https://push.example.org/x", rules)).toBeNull();
    expect(endpointProblem("https://a.corp.example/x", rules)).toBeNull();
    expect(endpointProblem("https://corp.example/x", rules)).not.toBeNull();
    expect(endpointProblem("https://fcm.googleapis.com/x", rules)).not.toBeNull();
    expect(hostAllowed("FCM.googleapis.com", KNOWN_PUSH_HOSTS)).toBe(true);
  });
});
