import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { nowIso } from "../core/ids.server";
import { installRetryDelay, recoverInstallRetries, retryRule, runInstallRetry } from "./installs";
import { INSTALL_FAILURE_REASONS, type InstallFailureReason } from "./socket/messages";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

describe("install retry rules (spec 2 §8)", () => {
  it.each([
    ["INSTALLATION_FAILURE_REASON_UNKNOWN", "timer"],
    ["NETWORK_ERROR_UNRELIABLE_CONNECTION", "online"],
    ["INSUFFICIENT_STORAGE", "storage"],
    ["IN_PROGRESS", "installing"],
    ["NOT_FOUND", "none"],
    ["USER_INVALID", "none"],
  ] as const)("%s → %s", (reason, rule) => expect(retryRule(reason)).toBe(rule));

  it("backs off exponentially from the base", () => {
    expect([1, 2, 3, 4].map((n) => installRetryDelay(n, 1_000))).toEqual([1_000, 2_000, 4_000, 8_000]);
  });
});

/** What each of the twelve reasons leaves behind: the app's state and the retry row's state. */
const EXPECTED: Record<InstallFailureReason, { state: string; retry: string | null }> = {
  INSTALLATION_FAILURE_REASON_UNKNOWN: { state: "failed", retry: "pending" },
  IN_PROGRESS: { state: "installing", retry: null },
  NOT_FOUND: { state: "failed", retry: "gave_up" },
  NOT_COMPATIBLE_WITH_DEVICE: { state: "failed", retry: "gave_up" },
  NOT_APPROVED: { state: "failed", retry: "gave_up" },
  PERMISSIONS_NOT_ACCEPTED: { state: "failed", retry: "gave_up" },
  NOT_AVAILABLE_IN_COUNTRY: { state: "failed", retry: "gave_up" },
  NO_LICENSES_REMAINING: { state: "failed", retry: "gave_up" },
  NOT_ENROLLED: { state: "failed", retry: "gave_up" },
  USER_INVALID: { state: "failed", retry: "gave_up" },
  NETWORK_ERROR_UNRELIABLE_CONNECTION: { state: "failed", retry: "waiting_online" },
  INSUFFICIENT_STORAGE: { state: "failed", retry: "waiting_storage" },
};

describe.each(DIALECTS)("install results and retries on %s", (dialect) => {
  let h: Harness;
  let free: string[] = [];
  beforeAll(async () => {
    // Retries after 10 s, so the reason states are seen before any retry; the retry tests run the job by hand or lower it.
    h = await startHarness({ dialect, installRetry: { baseMs: 10_000, maxAttempts: 3 } });
    const ids = (await h.tdb.db.selectFrom("profile_apps").select("package_name").execute()).map((r) => r.package_name);
    free = (
      await h.tdb.db
        .selectFrom("catalog_apps")
        .select("package_name")
        .where("free", "=", 1)
        .where("is_system_app", "=", 0)
        .orderBy("package_name")
        .execute()
    )
      .map((r) => r.package_name)
      .filter((p) => !ids.includes(p) && p !== "com.kidsportal.kidsapp");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const state = async (deviceId: string, pkg: string) => {
    // The app first, then its retry row: both change in one transaction, so a committed app state has its row.
    const app = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["install_state", "installation_failure_reason", "is_installed"])
      .where("device_id", "=", deviceId)
      .where("package_name", "=", pkg)
      .executeTakeFirst();
    const retry = await h.tdb.db
      .selectFrom("install_retries")
      .selectAll()
      .where("device_id", "=", deviceId)
      .where("package_name", "=", pkg)
      .executeTakeFirst();
    return { app, retry };
  };
  const install = (serial: string, pkg: string) =>
    h.caller(h.demo).store.install({ serialNumber: serial, packageName: pkg, enableDailyLimit: false, dailyLimitTime: 0 });

  it("every failure reason: the app's state and the retry rule", async () => {
    const { deviceId } = await h.kid(LEO);
    const phone = await h.phone(LEO);
    for (const [i, reason] of INSTALL_FAILURE_REASONS.entries()) {
      const pkg = free[i]!;
      phone.installer.failInstall(pkg, reason, 1);
      await install(LEO, pkg);
      const s = await waitFor(async () => {
        const v = await state(deviceId, pkg);
        return v.app?.installation_failure_reason === reason ? v : undefined;
      });
      expect({ reason, state: s.app!.install_state, installed: s.app!.is_installed, retry: s.retry?.status ?? null }).toEqual({
        reason,
        state: EXPECTED[reason].state,
        installed: 0,
        retry: EXPECTED[reason].retry,
      });
      if (s.retry) expect(s.retry.attempts).toBe(1);
    }
    const counts = (await h.runtime.jobs.counts()).find((c) => c.name === "install-retry")!;
    expect(counts.delayed).toBeGreaterThan(0); // the UNKNOWN one
  });

  it("UNKNOWN: the job sends it again (once, however often it runs) and it installs; start-up re-derives pending retries", async () => {
    const { deviceId } = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const pkg = free[20]!;
    phone.installer.failInstall(pkg, "INSTALLATION_FAILURE_REASON_UNKNOWN", 1);
    await install(MIA, pkg);
    await waitFor(async () => (await state(deviceId, pkg)).retry?.status === "pending");
    // Start-up recovery finds it (the in-process queue dedups by job id).
    expect(await recoverInstallRetries(h.runtime.deps)).toBeGreaterThanOrEqual(1);
    // Not due yet: the job does nothing.
    expect(await runInstallRetry(h.runtime.deps, deviceId, pkg)).toBe(false);
    // Due: two runs at once send one install.
    await h.tdb.db
      .updateTable("install_retries")
      .set({ next_attempt_at: nowIso() })
      .where("device_id", "=", deviceId)
      .where("package_name", "=", pkg)
      .execute();
    const before = phone.received.filter((c) => c.type === "INSTALL_APP" && c.payload.packageName === pkg).length;
    const runs = await Promise.all([runInstallRetry(h.runtime.deps, deviceId, pkg), runInstallRetry(h.runtime.deps, deviceId, pkg)]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    await waitFor(async () => (await state(deviceId, pkg)).app?.install_state === "installed");
    expect(phone.received.filter((c) => c.type === "INSTALL_APP" && c.payload.packageName === pkg).length).toBe(before + 1);
    expect((await state(deviceId, pkg)).retry).toMatchObject({ status: "done", attempts: 1 });
  });

  it("UNKNOWN every time: attempts are capped, then it gives up", async () => {
    const { deviceId } = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const pkg = free[21]!;
    phone.installer.failInstall(pkg, "INSTALLATION_FAILURE_REASON_UNKNOWN");
    await install(MIA, pkg);
    for (let attempt = 1; attempt < 3; attempt++) {
      await waitFor(async () => {
        const r = (await state(deviceId, pkg)).retry;
        return r?.status === "pending" && r.attempts === attempt;
      });
      await h.tdb.db
        .updateTable("install_retries")
        .set({ next_attempt_at: nowIso() })
        .where("device_id", "=", deviceId)
        .where("package_name", "=", pkg)
        .execute();
      expect(await runInstallRetry(h.runtime.deps, deviceId, pkg)).toBe(true);
    }
    await waitFor(async () => (await state(deviceId, pkg)).retry?.status === "gave_up");
    expect((await state(deviceId, pkg)).retry?.attempts).toBe(3);
    expect(await runInstallRetry(h.runtime.deps, deviceId, pkg)).toBe(false);
  });

  it("NETWORK_ERROR resumes when the phone is back online; INSUFFICIENT_STORAGE when it reports free storage", async () => {
    const { deviceId } = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const net = free[22]!;
    const disk = free[23]!;
    phone.installer.failInstall(net, "NETWORK_ERROR_UNRELIABLE_CONNECTION", 1);
    phone.installer.failInstall(disk, "INSUFFICIENT_STORAGE");
    await install(MIA, net);
    await install(MIA, disk);
    await waitFor(async () => (await state(deviceId, net)).retry?.status === "waiting_online");
    await waitFor(async () => (await state(deviceId, disk)).retry?.status === "waiting_storage");
    expect((await state(deviceId, disk)).retry?.free_storage_mb).toBe(20);
    // Off and back on: the network install goes again and lands; the storage one still waits.
    await phone.close();
    await phone.connect();
    await waitFor(async () => (await state(deviceId, net)).app?.install_state === "installed");
    expect((await state(deviceId, net)).retry?.status).toBe("done");
    expect((await state(deviceId, disk)).retry?.status).toBe("waiting_storage");
    // The kid frees space: the phone reports it and the install resumes.
    await phone.installer.freeStorage(2_048);
    await waitFor(async () => (await state(deviceId, disk)).app?.install_state === "installed");
    expect(phone.state.installed.has(disk)).toBe(true);
  });
});
