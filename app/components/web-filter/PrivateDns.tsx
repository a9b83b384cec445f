import { useState } from "react";
import { useHydrated } from "~/utils/hooks";

/**
 * The phone's Private DNS hostname and how to enter it on Android: every lookup of every app then goes through this
 * kid's filter. Without JavaScript the hostname sits in a read-only field to select; with it, Copy.
 */
export function PrivateDns({ hostname, kidName }: { hostname: string | null; kidName: string }) {
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
