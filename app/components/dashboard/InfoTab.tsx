import { Link } from "@remix-run/react";
import { MONTHS } from "~/rules/kids";
import { formatDateTime as fmtDateTime } from "#core/format";
import type { DashData } from "./types";
import { useHrefWith } from "./url";

/** The Info tab: the kid and the phone at a glance. */
export function InfoTab({ data, own }: { data: DashData; own: boolean }) {
  const to = useHrefWith();
  const { device, profile } = data;
  const rows: [string, string][] = [
    ["Name", profile.name],
    ["Birth", `${MONTHS[profile.birthMonth - 1]} ${profile.birthYear} (${data.age} years)`],
    ["Phone", [device.brand, device.model].filter(Boolean).join(" ") || "—"],
    ["Serial number", device.serialNumber],
    ["Kids app version", device.appVersion ?? "—"],
    ["Kids app status", device.kidsAppStatus],
    ["Battery", device.batteryPercentage == null ? "Unknown" : `${device.batteryPercentage}%`],
    ["Wi-Fi", device.wifiConnected ? "Connected" : "Not connected"],
    ["Sleep mode", profile.sleepMode ? "On" : "Off"],
    ["App protection", device.protectionEnabled ? "Locked" : "Unlocked"],
    ["Full device access", device.allowFullDeviceAccess ? "Allowed" : "Not allowed"],
    ["Activated", fmtDateTime(device.lastActivationAt)],
  ];
  return (
    <section className="card" aria-labelledby="info-title">
      <h2 id="info-title">About {profile.name}&apos;s phone</h2>
      <dl className="details">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <Link to={`/device-info?${new URLSearchParams({ profile_id: profile.id, serialNumber: device.serialNumber })}`}>
        All device details
      </Link>
      <div className="button-row">
        <Link className="btn btn-outline btn-small" to={to({ modal: "replace-phone" })} preventScrollReset>
          Replace phone
        </Link>
        {own ? (
          <Link className="btn btn-outline btn-small btn-danger-outline" to={to({ modal: "remove-kid" })} preventScrollReset>
            Remove {profile.name}
          </Link>
        ) : null}
      </div>
    </section>
  );
}
