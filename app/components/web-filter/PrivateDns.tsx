import { useState } from "react";
import { useHydrated } from "~/utils/hooks";
import type { PrivateDnsState } from "#core/private-dns";

/** What the phone last reported of its Private DNS, against the hostname it should use. */
export function phoneStateText(state: PrivateDnsState | null, hostname: string): { text: string; ok: boolean | null } {
  if (!state) return { text: "This phone has not reported its Private DNS yet.", ok: null };
  if (state.mode === "off") return { text: "Private DNS is off on this phone: the web filter does not apply.", ok: false };
  if (state.mode === "opportunistic")
    return { text: "Private DNS on this phone is set to Automatic: the web filter does not apply.", ok: false };
  if (state.hostname === hostname.toLowerCase()) return { text: "This phone uses this hostname: the web filter applies.", ok: true };
  return { text: `Private DNS on this phone is set to another server: ${state.hostname ?? ""}. The web filter does not apply.`, ok: false };
}

/**
 * The phone's Private DNS hostname and how to enter it on Android: every lookup of every app then goes through this
 * kid's filter. Without JavaScript the hostname sits in a read-only field to select; with it, Copy.
 */
export function PrivateDns({
  hostname,
  kidName,
  phone = null,
}: {
  hostname: string | null;
  kidName: string;
  /** The phone's Private DNS as it last reported it (null: never reported). */
  phone?: PrivateDnsState | null;
}) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState("");
  if (!hostname)
    return (
      <section className="card settings-section" id="private-dns" aria-labelledby="dns-title">
        <h2 id="dns-title">Private DNS</h2>
        <p className="banner banner-warning" data-testid="web-filter-off">
          The web filter is switched off on this server. Your choices below are saved and apply when it is switched on.
        </p>
      </section>
    );
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(hostname);
      setCopied("Hostname copied.");
    } catch {
      setCopied("Could not copy: select the hostname and copy it.");
    }
  };
  return (
    <section className="card settings-section" id="private-dns" aria-labelledby="dns-title">
      <h2 id="dns-title">Private DNS</h2>
      <p className="muted small">Enter this hostname on {kidName}&apos;s phone once: the filter then covers every browser and app.</p>
      <div className="field">
        <label htmlFor="dns-hostname">Private DNS hostname</label>
        <div className="wf-add">
          <input
            id="dns-hostname"
            type="text"
            readOnly
            value={hostname}
            onFocus={(e) => e.currentTarget.select()}
            className="wf-hostname"
          />
          {hydrated ? (
            <button type="button" className="btn btn-outline" onClick={copy}>
              Copy
            </button>
          ) : null}
        </div>
        <p className="small" role="status" aria-live="polite">
          {copied}
        </p>
      </div>
      <PhoneState state={phone} hostname={hostname} />
      <ol className="wf-steps">
        <li>On the phone, open Settings, then Network &amp; internet, then Private DNS.</li>
        <li>Choose Private DNS provider hostname.</li>
        <li>
          Enter <strong className="wf-host">{hostname}</strong>.
        </li>
        <li>Tap Save.</li>
      </ol>
      <p className="muted small">On some phones it is under Settings, then Connections, then More connection settings, then Private DNS.</p>
    </section>
  );
}

function PhoneState({ state, hostname }: { state: PrivateDnsState | null; hostname: string }) {
  const { text, ok } = phoneStateText(state, hostname);
  return (
    <p
      className={ok === false ? "banner banner-warning" : ok ? "banner banner-success" : "muted small"}
      data-testid="private-dns-phone"
      data-state={ok === null ? "unknown" : ok ? "ok" : "changed"}
    >
      {text}
    </p>
  );
}
