import { describe, expect, it } from "vitest";
import { readPageToast, readToast, toastHeader } from "./toast.server";

const asRequest = (setCookie: string) => new Request("http://localhost/", { headers: { Cookie: setCookie.split(";")[0] } });

describe("toast cookies", () => {
  it("carry their toast to the next request, which reads it once", async () => {
    const header = await toastHeader({ type: "success", message: "Lock sent to the phone." });
    const read = await readToast(asRequest(header));
    expect(read.toast).toEqual({ type: "success", message: "Lock sent to the phone." });
    // Read: the cookie that clears it goes back; the cleared cookie carries nothing.
    expect((await readToast(asRequest(read.setCookie!))).toast).toBeNull();
  });

  it("are the same header for the same toast (made once), another for another toast, and refuse a forged one", async () => {
    const a = await toastHeader({ type: "success", message: "Saved." });
    expect(await toastHeader({ type: "success", message: "Saved." })).toBe(a);
    const b = await toastHeader({ type: "error", message: "Saved." });
    const c = await toastHeader({ type: "success", message: "Saved!" });
    expect(new Set([a, b, c]).size).toBe(3);
    expect((await readToast(asRequest(b))).toast).toEqual({ type: "error", message: "Saved." });
    expect((await readToast(asRequest(c))).toast).toEqual({ type: "success", message: "Saved!" });
    // Same value, another signature: not read.
    const [value, signature] = a.split(";")[0].split("=")[1].split(".");
    expect((await readToast(asRequest(`kp_toast=${value}.${signature.replace(/^./, (ch) => (ch === "A" ? "B" : "A"))}`))).toast).toBeNull();
  });

  it("stay right past the bound of kept headers", async () => {
    const first = await toastHeader({ type: "info", message: "n0" });
    for (let i = 1; i < 1_200; i++) await toastHeader({ type: "info", message: `n${i}` });
    expect(await toastHeader({ type: "info", message: "n0" })).toBe(first);
    expect((await readToast(asRequest(await toastHeader({ type: "info", message: "n7" })))).toast).toEqual({ type: "info", message: "n7" });
  });

  it("are left in place by a framed document (the dashboard's map frame), which shows none, for the page to read", async () => {
    const header = await toastHeader({ type: "success", message: "Map display saved." });
    const cookie = header.split(";")[0];
    for (const framed of [
      new Request("http://localhost/map?lat=1&long=2", { headers: { Cookie: cookie, "Sec-Fetch-Dest": "iframe" } }),
      new Request("http://localhost/map?lat=1&long=2&embed=1", { headers: { Cookie: cookie } }),
    ]) {
      expect(await readPageToast(framed)).toEqual({ toast: null, setCookie: null });
    }
    const page = await readPageToast(
      new Request("http://localhost/kids-device", { headers: { Cookie: cookie, "Sec-Fetch-Dest": "document" } }),
    );
    expect(page.toast).toEqual({ type: "success", message: "Map display saved." });
    expect(page.setCookie).toBeTruthy();
  });
});
