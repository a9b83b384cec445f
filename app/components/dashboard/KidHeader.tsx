import { Link } from "@remix-run/react";
import { phoneStateLabel } from "~/rules/kids";
import { batteryIcon } from "~/rules/status";
import { BatteryIcon, BellIcon, EditIcon, GearIcon, PhoneIcon, PinIcon, GlobeIcon, WarningIcon, WifiIcon } from "./icons";
import { KidSwitcherList } from "./KidSwitcher";
import type { DashData } from "./types";
import { useHrefWith } from "./url";

/** The kid's header: picture, name and age, the notification bell, the phone's status, the kid's settings. */
export function KidHeader({ data, kidQs }: { data: DashData; kidQs: string }) {
  const to = useHrefWith();
  const { profile, device } = data;
  const battery = batteryIcon(device.batteryPercentage);
  const healthy = device.kidsAppStatus === "Healthy";
  return (
    <section className="card kid-header" aria-labelledby="kid-name">
      <div className="kid-top">
        <div className="avatar" aria-hidden="true">
          {profile.hasPicture && !data.parent.hideGoogle ? (
            <img
              src={`/resources/kid-picture?profileId=${profile.id}&v=${encodeURIComponent(profile.updatedAt)}`}
              alt=""
              width={56}
              height={56}
            />
          ) : (
            <span>{profile.name.slice(0, 1).toUpperCase()}</span>
          )}
        </div>
        <div className="kid-title">
          <h1 id="kid-name">{profile.name}</h1>
          <p className="muted small">
            {data.age} years · {[device.brand, device.model].filter(Boolean).join(" ") || "Phone"}
          </p>
        </div>
        <Link
          to={to({ modal: "notifications", npage: null })}
          className="icon-btn bell"
          aria-label={`Notifications, ${data.unread} unread`}
          preventScrollReset
        >
          <BellIcon />
          {data.unread > 0 ? (
            <span className="badge-count" aria-hidden="true">
              {data.unread}
            </span>
          ) : null}
        </Link>
      </div>
      <div className="kid-status" role="group" aria-label="Phone status">
        <span className={`status-pill presence-${device.online ? "online" : "offline"}`} data-testid="phone-presence">
          {phoneStateLabel({ phone: device.online ? "online" : "offline", lastSeen: device.statusUpdatedAt })}
        </span>
        <span className={`status-pill battery-${battery}`} title="Battery">
          <BatteryIcon level={battery} />
          <span>
            <span className="sr-only">Battery </span>
            {device.batteryPercentage == null ? "Unknown" : `${device.batteryPercentage}%`}
            <span className="sr-only"> ({battery})</span>
          </span>
        </span>
        <span className="status-pill">
          <WifiIcon on={device.wifiConnected} />
          <span>{device.wifiConnected ? "Wi-Fi on" : "Wi-Fi off"}</span>
        </span>
        {healthy ? (
          <span className="status-pill ok">Kids app: Healthy</span>
        ) : (
          <Link className="status-pill warn" to={to({ modal: "permissions" })} preventScrollReset>
            <WarningIcon />
            <span>Kids app: {device.kidsAppStatus} — see what is missing</span>
          </Link>
        )}
      </div>
      <nav className="kid-actions" aria-label={`${profile.name}'s settings`}>
        <KidSwitcherList kids={data.kids} currentId={profile.id} />
        <Link className="btn btn-outline btn-small" to={to({ modal: "edit" })} preventScrollReset>
          <EditIcon /> Edit kid
        </Link>
        <Link
          className="btn btn-outline btn-small"
          to={`/device-info?${new URLSearchParams({ profile_id: profile.id, serialNumber: device.serialNumber })}`}
        >
          <PhoneIcon /> Device info
        </Link>
        <Link className="btn btn-outline btn-small" to={`/global-settings?${kidQs}`}>
          <GearIcon /> Global Settings
        </Link>
        <Link className="btn btn-outline btn-small" to={`/location-settings?${kidQs}`}>
          <PinIcon /> Location Settings
        </Link>
        <Link className="btn btn-outline btn-small" to={`/web-filter?${kidQs}`}>
          <GlobeIcon /> Web Filter
        </Link>
      </nav>
    </section>
  );
}
