import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../../server/harness.testing";
import { readToast } from "~/utils/toast.server";
import { callDevice } from "./device.server";

// The toast cookie is signed with the session secret; a test never writes one into the working tree.
process.env.SESSION_SECRET ??= "t".repeat(40);
process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "device-server-test-"));

const MIA = "DEMO-MIA-0001";

async function toastOf(res: Response) {
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0];
  return (await readToast(new Request("http://localhost/", { headers: { Cookie: cookie } }))).toast;
}

/** Issue 9 item 11: the device service's command limit reaches the parent as a plain toast. */
describe("callDevice", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("the 31st command to one phone within a minute comes back as an error toast with a clear message", async () => {
    const parent = await h.tdb.db.selectFrom("parents").selectAll().where("id", "=", h.demo.id).executeTakeFirstOrThrow();
    const context = { services: { device: h.caller, log: () => {} } } as unknown as AppLoadContext;
    const lock = () => callDevice(context, parent, "/device-info", (d) => d.device.issueCommand({ serialNumber: MIA, type: "LOCK" }));
    for (let i = 0; i < 30; i++) expect(await toastOf(await lock())).toMatchObject({ type: "success" });
    const refused = await lock();
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/device-info");
    expect(await toastOf(refused)).toEqual({
      type: "error",
      message: "You have sent 30 commands to Mia's phone in the last minute. Please wait a minute before sending another.",
    });
  });
});
