import { describe, expect, it } from "vitest";
import { blockedAddressReason, guardUrl } from "./net-guard.server";
import { ALERT_KINDS } from "./alert-events";
import { webhookTypeOfAlert } from "./webhooks";

describe("the address guard (webhook endpoints)", () => {
  it.each([
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["192.168.1.10", "private"],
    ["127.0.0.1", "loopback"],
    ["127.8.8.8", "loopback"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "this network"],
    ["100.64.0.1", "shared (carrier-grade NAT)"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "loopback (IPv4-mapped)"],
    ["::ffff:7f00:1", "loopback (IPv4-mapped)"],
    ["::ffff:10.0.0.1", "private (IPv4-mapped)"],
    ["::ffff:169.254.169.254", "link-local (IPv4-mapped)"],
    ["64:ff9b::a00:1", "private (NAT64)"],
  ])("refuses %s (%s)", (ip, why) => {
    expect(blockedAddressReason(ip)).toBe(why);
  });

  it.each(["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "172.32.0.1", "11.0.0.1"])(
    "allows the public %s",
    (ip) => {
      expect(blockedAddressReason(ip)).toBeNull();
    },
  );

  it.each([
    ["http://10.0.0.5/hook", "is a private address"],
    ["http://127.0.0.1:8080/hook", "is a loopback address"],
    ["http://169.254.169.254/latest/meta-data", "is a link-local address"],
    ["http://[::1]/hook", "is a loopback address"],
    ["http://[fc00::1]/hook", "is a unique-local address"],
    ["http://[::ffff:127.0.0.1]/hook", "loopback (IPv4-mapped)"],
    ["ftp://example.com/hook", "only http:// and https:// addresses"],
    ["file:///etc/passwd", "only http:// and https:// addresses"],
    ["https://user:pass@example.com/hook", "user name or password"],
    ["not a url", "not a valid address"],
  ])("refuses the endpoint %s", async (url, reason) => {
    const r = await guardUrl(url, { allowPrivate: false, resolve: async () => [{ address: "93.184.215.14", family: 4 }] });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toContain(reason);
  });

  it("refuses a host name that resolves to a private address, and one where any answer is private", async () => {
    const internal = await guardUrl("https://hooks.example.com/in", {
      allowPrivate: false,
      resolve: async () => [{ address: "10.0.0.7", family: 4 }],
    });
    expect(internal).toEqual({ ok: false, reason: "hooks.example.com is a private address (10.0.0.7); only public addresses are allowed" });
    const mixed = await guardUrl("https://mixed.example.com/in", {
      allowPrivate: false,
      resolve: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "::1", family: 6 },
      ],
    });
    expect(mixed.ok).toBe(false);
    // The real resolver: localhost is loopback.
    const local = await guardUrl("http://localhost:9/hook", { allowPrivate: false });
    expect(local.ok).toBe(false);
    expect(!local.ok && local.reason).toMatch(/^localhost is a loopback address/);
  });

  it("answers the one checked address to connect to (no second lookup), and lets private addresses through only when allowed", async () => {
    let asked = 0;
    const resolve = async () => {
      asked++;
      return [{ address: "93.184.215.14", family: 4 }];
    };
    const r = await guardUrl("https://hooks.example.com/in?x=1", { allowPrivate: false, resolve });
    expect(r).toMatchObject({ ok: true, address: "93.184.215.14", family: 4 });
    expect(asked).toBe(1);
    expect((await guardUrl("http://127.0.0.1:8080/hook", { allowPrivate: true })).ok).toBe(true);
  });
});

describe("alerts as webhook types", () => {
  it("sends places as place.changed, other alerts as alert.created, and leaves requests and limits to their own sources", () => {
    const map = Object.fromEntries(ALERT_KINDS.map((k) => [k, webhookTypeOfAlert(k)]));
    expect(map).toMatchObject({
      "place.arrive": "place.changed",
      "place.leave": "place.changed",
      "battery.low": "alert.created",
      "phone.offline": "alert.created",
      "tamper.protection-off": "alert.created",
      "request.install": null,
      "limit.reached": null,
    });
  });
});
