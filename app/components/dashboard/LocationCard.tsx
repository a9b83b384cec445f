import { Form, Link } from "@remix-run/react";
import { localMapHref } from "~/rules/location";
import { formatDateTime as fmtDateTime } from "#core/format";
import { useIsSubmitting } from "~/utils/hooks";
import { PinIcon } from "./icons";
import { MapFrame } from "./MapFrame";
import { Switch } from "./Switch";
import type { DashData } from "./types";

/** Last location: the coordinates and time, the "Show map" switch, the embedded map and its link. */
export function LocationCard({ data }: { data: DashData }) {
  const { device, profile } = data;
  const loc = device.lastLocation;
  const busy = useIsSubmitting({ intent: "map-display" });
  return (
    <section className="card" id="location" aria-labelledby="location-title">
      <div className="row-between">
        <h2 id="location-title">Last location</h2>
        <Form method="post" preventScrollReset className="switch-form">
          <input type="hidden" name="intent" value="map-display" />
          <input type="hidden" name="profileId" value={profile.id} />
          <input type="hidden" name="enableLocationMapDisplay" value={device.enableLocationMapDisplay ? "off" : "on"} />
          <Switch checked={device.enableLocationMapDisplay} label="Show map" disabled={busy} />
        </Form>
      </div>
      {loc ? (
        <>
          <p>
            <PinIcon className="inline-icon" /> {loc.latitude.toFixed(5)}, {loc.longitude.toFixed(5)}{" "}
            <span className="muted small">· {fmtDateTime(loc.deviceTime)}</span>
          </p>
          {device.enableLocationMapDisplay ? (
            <MapFrame
              title={`Map of ${profile.name}'s last location`}
              src={localMapHref(loc.latitude, loc.longitude, loc.deviceTime, { profileId: profile.id, embed: true })}
            />
          ) : null}
          <Link to={localMapHref(loc.latitude, loc.longitude, loc.deviceTime, { profileId: profile.id })}>Open map</Link>
        </>
      ) : (
        <p className="muted">No location has been reported yet.</p>
      )}
    </section>
  );
}
