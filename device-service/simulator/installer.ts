import { INSTALL_FAILURE_REASONS, type InstallFailureReason } from "../socket/messages";
import type { ReceivedCommand, SimulatedPhone } from "./phone";

/** How an install of one package fails: with this reason, this many times (then it succeeds), or always. */
export interface InstallFailure {
  reason: InstallFailureReason;
  times?: number;
}

/** Free storage a simulated phone starts with, and what it has left after an install fails for storage. */
export const SIM_FREE_STORAGE_MB = 4096;
export const SIM_FULL_STORAGE_MB = 20;

/**
 * The simulated phone's installer (spec 2 §8). INSTALL_APP installs the package and answers install_result
 * INSTALLED, unless it was told to fail that package: then it answers FAILED with the reason. A storage failure
 * first reports the phone nearly full; `freeStorage` reports room again (the server then resumes the install).
 * Told by the `failInstalls` option, `failInstall()` (tests, the e2e control server) or the CLI's --fail-install.
 */
export class PhoneInstaller {
  private readonly failures = new Map<string, { reason: InstallFailureReason; remaining: number }>();
  freeStorageMb = SIM_FREE_STORAGE_MB;

  constructor(
    private readonly phone: SimulatedPhone,
    initial: Record<string, InstallFailureReason | InstallFailure> = {},
  ) {
    for (const [pkg, f] of Object.entries(initial)) {
      if (typeof f === "string") this.failInstall(pkg, f);
      else this.failInstall(pkg, f.reason, f.times);
    }
  }

  /** The next `times` installs of the package fail with the reason (default: every one). */
  failInstall(packageName: string, reason: InstallFailureReason, times = Number.POSITIVE_INFINITY): void {
    if (!INSTALL_FAILURE_REASONS.includes(reason)) throw new Error(`unknown install failure reason ${String(reason)}`);
    this.failures.set(packageName, { reason, remaining: times });
  }

  clearFailure(packageName: string): void {
    this.failures.delete(packageName);
  }

  /** Room again: storage failures stop, and the phone reports its free storage (child_status). */
  async freeStorage(mb = SIM_FREE_STORAGE_MB): Promise<void> {
    for (const [pkg, f] of this.failures) if (f.reason === "INSUFFICIENT_STORAGE") this.failures.delete(pkg);
    this.freeStorageMb += mb;
    await this.phone.send("child_status", this.phone.statusData());
  }

  async install(cmd: ReceivedCommand, packageName: string): Promise<void> {
    const f = this.failures.get(packageName);
    if (f && f.remaining > 0) {
      f.remaining -= 1;
      if (f.remaining <= 0) this.failures.delete(packageName);
      if (f.reason === "INSUFFICIENT_STORAGE") {
        this.freeStorageMb = SIM_FULL_STORAGE_MB;
        await this.phone.send("child_status", this.phone.statusData());
      }
      await this.phone.send("install_result", { status: "FAILED", packageName, failureReason: f.reason });
      await this.phone.send("command_ack", { commandId: cmd.id, status: "failed", error: f.reason });
      return;
    }
    this.phone.state.installed.add(packageName);
    await this.phone.send("install_result", { status: "INSTALLED", packageName });
    await this.phone.send("command_ack", { commandId: cmd.id, status: "acknowledged" });
  }
}

/** `--fail-install com.a=NOT_FOUND,com.b=INSTALLATION_FAILURE_REASON_UNKNOWN:2` → options for the installer. */
export function parseFailInstalls(text: string): Record<string, InstallFailure> {
  const out: Record<string, InstallFailure> = {};
  for (const part of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9._-]+)=([A-Z_]+)(?::(\d+))?$/.exec(part);
    if (!m || !INSTALL_FAILURE_REASONS.includes(m[2] as InstallFailureReason))
      throw new Error(`--fail-install expects package=REASON[:times] with one of ${INSTALL_FAILURE_REASONS.join(", ")}; got "${part}"`);
    out[m[1]] = { reason: m[2] as InstallFailureReason, ...(m[3] ? { times: Number(m[3]) } : {}) };
  }
  return out;
}
