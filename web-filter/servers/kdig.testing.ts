import { execFile } from "node:child_process";
import { existsSync } from "node:fs";

/** Debian's kdig (package knot-dnsutils), a real DoT and DoH client; scripts/test.mjs installs it. */
export const KDIG = "/usr/bin/kdig";

export interface KdigResult {
  /** The response code kdig printed (NOERROR, REFUSED…), or null when it got no answer. */
  status: string | null;
  /** The answer section's records as "name ttl type data". */
  answers: string[];
  output: string;
}

/** Runs kdig with `args` (a 3 s timeout, one try) and reads its answer. */
export function kdig(args: string[]): Promise<KdigResult> {
  if (!existsSync(KDIG)) throw new Error(`${KDIG} is missing: install Debian's knot-dnsutils (npm test does when it can).`);
  return new Promise((resolve) => {
    execFile(KDIG, ["+timeout=3", "+retry=0", "+noall", "+header", "+answer", ...args], { timeout: 15_000 }, (_err, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      const status = /->>HEADER<<-.*status: (\w+)/.exec(output)?.[1] ?? null;
      const answers = stdout
        .split("\n")
        .filter((l) => l && !l.startsWith(";"))
        .map((l) =>
          l
            .trim()
            .split(/\s+/)
            .filter((w) => w !== "IN")
            .join(" "),
        );
      resolve({ status, answers, output });
    });
  });
}
