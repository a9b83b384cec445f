import { useEffect, useState } from "react";

/** The browser's IANA time zone once JavaScript runs (null on the server and without JavaScript). */
export function useBrowserTimeZone(): string | null {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => {
    try {
      setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || null);
    } catch {
      setZone(null);
    }
  }, []);
  return zone;
}

/**
 * Sign-up's hidden `timeZone` field: empty without JavaScript (the server keeps its default, UTC, and the parent can
 * choose on the profile), the browser's zone with it. The server checks the name (core/zoned-time isTimeZone).
 */
export function BrowserTimeZoneInput({ name = "timeZone" }: { name?: string }) {
  const zone = useBrowserTimeZone();
  return <input type="hidden" name={name} value={zone ?? ""} data-testid="browser-time-zone" />;
}
