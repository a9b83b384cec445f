import { describe, expect, it } from "vitest";
import { ringState } from "./ring";

// Ring This Device shows the phone's real ringing state: the last RING or STOP_SOUND command and its acknowledgement.
describe("ring state", () => {
  it.each([
    [null, "stopped"],
    [{ type: "RING", status: "queued" }, "starting"],
    [{ type: "RING", status: "sent" }, "starting"],
    [{ type: "RING", status: "acknowledged" }, "ringing"],
    [{ type: "RING", status: "failed" }, "stopped"],
    [{ type: "RING", status: "expired" }, "stopped"],
    [{ type: "STOP_SOUND", status: "queued" }, "stopping"],
    [{ type: "STOP_SOUND", status: "sent" }, "stopping"],
    [{ type: "STOP_SOUND", status: "acknowledged" }, "stopped"],
    // A stop the phone never got: it may still be ringing, so Stop Sound stays offered.
    [{ type: "STOP_SOUND", status: "failed" }, "ringing"],
    [{ type: "STOP_SOUND", status: "expired" }, "ringing"],
  ] as const)("%j → %s", (last, state) => {
    expect(ringState(last)).toBe(state);
  });
});
