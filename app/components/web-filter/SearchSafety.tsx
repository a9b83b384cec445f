import type { YoutubeMode } from "#db/schema-web-filter";
import { Switch } from "~/components/dashboard/Switch";
import { YOUTUBE_CHOICES } from "~/rules/web-filter";

/** SafeSearch (Google, Bing, DuckDuckGo) and YouTube Restricted Mode. */
export function SearchSafety({
  safeSearch,
  youtube,
  onSafeSearch,
  onYoutube,
}: {
  safeSearch: boolean;
  youtube: YoutubeMode;
  onSafeSearch: (on: boolean) => void;
  onYoutube: (mode: YoutubeMode) => void;
}) {
  return (
    <section className="card settings-section" id="search" aria-labelledby="search-title">
      <h2 id="search-title">Search and YouTube</h2>
      <input type="hidden" name="safeSearchOn" value={safeSearch ? "on" : "off"} />
      <Switch checked={safeSearch} name="safeSearch" label="SafeSearch" onToggle={onSafeSearch} />
      <p className="muted small">Google, Bing and DuckDuckGo hide explicit results, and it cannot be turned off on the phone.</p>
      <fieldset className="choice-row">
        <legend>YouTube Restricted Mode</legend>
        {YOUTUBE_CHOICES.map((c) => (
          <label key={c.value} className="choice">
            <input type="radio" name="youtube" value={c.value} checked={youtube === c.value} onChange={() => onYoutube(c.value)} />
            {c.label}
          </label>
        ))}
      </fieldset>
      <p className="muted small">Moderate hides mature videos; Strict hides more. Comments are hidden in both.</p>
    </section>
  );
}
