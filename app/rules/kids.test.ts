import { describe, expect, it } from "vitest";
import { phoneStateLabel } from "./kids";

describe("phoneStateLabel (the switcher's phone state)", () => {
  it.each([
    [{ phone: "none", lastSeen: null }, "No phone yet"],
    [{ phone: "online", lastSeen: "2026-11-20T09:05:00.000Z" }, "Online now"],
    [{ phone: "offline", lastSeen: "2026-11-20T09:05:00.000Z" }, "Offline, last seen Nov 20, 2026, 9:05 AM UTC"],
    [{ phone: "offline", lastSeen: null }, "Offline, not seen yet"],
  ] as const)("%o → %s", (kid, label) => {
    expect(phoneStateLabel(kid)).toBe(label);
  });
});
