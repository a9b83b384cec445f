import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod, getZodConstraint } from "@conform-to/zod";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { CategoryChartFigure } from "~/components/charts/CategoryBarChart";
import { Field, SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import type { action, loader } from "~/routes/_app.kids-device";
import { useIsSubmitting } from "~/utils/hooks";
import { useLiveRefresh } from "~/utils/live";
import { ackColour, batteryIcon, formatMinutes, isManualInstall, localMapHref, MONTHS, type AckColour } from "~/utils/rules";
import { BatteryIcon, BellIcon, ChevronIcon, ClockIcon, EditIcon, GearIcon, InfoIcon, LockIcon, MoonIcon, PhoneIcon, PinIcon, WarningIcon, WifiIcon } from "./icons";
import { addKidSchema, editKidSchema } from "./schemas";
import { useHrefWith } from "./url";
import { formatDateTime } from "~/utils/format";
import { Switch } from "./Switch";

type Data = SerializeFrom<typeof loader>;
type DashData = Extract<Data, { state: "dashboard" }>;
type NoDevData = Extract<Data, { state: "no-devices" }>;
type ActionData = SerializeFrom<typeof action> | undefined;

const fmtDateTime = formatDateTime;

function Warnings({ parent, fullAccess, profileId, serialNumber }: { parent: { useDefaultPassword: boolean }; fullAccess?: boolean; profileId?: string; serialNumber?: string }) {
  return (
    <>
      {parent.useDefaultPassword ? (
        <div className="banner banner-warning" role="alert">
          You are using the default password. <Link to="/change-password">Change your password</Link> to keep your account safe.
        </div>
      ) : null}
      {fullAccess && profileId && serialNumber ? (
        <div className="banner banner-warning" role="alert">
          Full device access is allowed: protections are off on this phone.{" "}
          <Link to={`/global-settings?${new URLSearchParams({ profileId, serialNumber })}`}>Review in Global Settings</Link>
        </div>
      ) : null}
    </>
  );
}

// ---------------------------------------------------------------- no devices

export function NoDevices({ data, actionData }: { data: NoDevData; actionData: ActionData }) {
  const to = useHrefWith();
  const enroll = actionData && "intent" in actionData && actionData.intent === "enroll" ? actionData : null;
  const busy = useIsSubmitting({ intent: "enroll" });
  return (
    <div className="stack">
      <Warnings parent={data.parent} />
      {data.kids.length > 1 ? <KidSwitcherList kids={data.kids} currentId={data.kid?.id ?? null} /> : null}
      <section className="card center empty-state">
        <h1>Kids Devices</h1>
        <p>No devices have been added yet.</p>
        {data.kid ? (
          <p>
            <Link className="btn" to={to({ modal: "enroll" })} preventScrollReset>
              Add {data.kid.name}&apos;s phone
            </Link>
          </p>
        ) : (
          <AddKidForm lastResult={actionData && "intent" in actionData && actionData.intent === "add-kid" ? actionData.result : undefined} currentYear={new Date().getUTCFullYear()} />
        )}
        <div className="button-row">
          <Link className="btn" to="/parent-profile">
            Go To Profile
          </Link>
          <Link className="btn btn-outline" to="/payment-history">
            Go To Payment History
          </Link>
          <Link className="btn btn-outline" to={to({ modal: "logout" })}>
            Log out
          </Link>
        </div>
      </section>
      {data.modal === "enroll" && data.kid ? (
        <Modal title="Add a phone" closeHref={to({ modal: null })}>
          <p>
            Open the Kids Portal app on {data.kid.name}&apos;s phone and scan this code. The code works once and expires soon.
          </p>
          {enroll ? (
            <div className="qr-box">
              <div className="qr" role="img" aria-label="Enrollment QR code" dangerouslySetInnerHTML={{ __html: enroll.svg }} />
              <p className="muted small">Expires {fmtDateTime(enroll.expiresAt)}</p>
              <p className="small break">
                Or enter this link on the phone: <code>{enroll.enrollUrl}</code>
              </p>
            </div>
          ) : null}
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="enroll" />
            <input type="hidden" name="profileId" value={data.kid.id} />
            <SubmitButton busy={busy} className="btn">
              {enroll ? "Show a new code" : "Show QR code"}
            </SubmitButton>
          </Form>
        </Modal>
      ) : null}
    </div>
  );
}

// ---------------------------------------------------------------- dashboard

function KidSwitcherList({ kids, currentId }: { kids: { id: string; name: string; serialNumber: string | null }[]; currentId: string | null }) {
  return (
    <details className="kid-switch">
      <summary className="btn btn-outline btn-small">
        Switch kid <ChevronIcon dir="down" />
      </summary>
      <nav aria-label="Kids">
        <ul>
          {kids.map((k) => (
            <li key={k.id}>
              <Link to={`/kids-device?profileId=${k.id}`} aria-current={k.id === currentId ? "page" : undefined}>
                {k.name}
                {k.serialNumber ? null : <span className="muted small"> · no phone yet</span>}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}

const ACK_LABEL: Record<AckColour, string> = { green: "confirmed by the phone", warning: "waiting for the phone", off: "off" };

export function DashboardView({ data, actionData }: { data: DashData; actionData: ActionData }) {
  const to = useHrefWith();
  useLiveRefresh(data.profile.id);
  const { profile, device } = data;
  const kidQs = new URLSearchParams({ profileId: profile.id, serialNumber: device.serialNumber }).toString();
  const sleepColour = ackColour(profile.sleepMode, data.ack.sleepModeAcknowledged);
  const protColour = ackColour(device.protectionEnabled, data.ack.protectionAcknowledged);
  const waiting = [!data.ack.sleepModeAcknowledged ? "sleep mode" : null, !data.ack.protectionAcknowledged ? "app protection" : null].filter(Boolean);
  const battery = batteryIcon(device.batteryPercentage);
  const healthy = device.kidsAppStatus === "Healthy";
  const editResult = actionData && "intent" in actionData && actionData.intent === "edit-kid" ? actionData.result : undefined;
  const modal = editResult ? "edit" : data.modal;

  return (
    <div className="stack dashboard">
      <Warnings parent={data.parent} fullAccess={device.allowFullDeviceAccess} profileId={profile.id} serialNumber={device.serialNumber} />

      <section className="card kid-header" aria-labelledby="kid-name">
        <div className="kid-top">
          <div className="avatar" aria-hidden="true">
            {profile.hasPicture && !data.parent.hideGoogle ? (
              <img src={`/resources/kid-picture?profileId=${profile.id}&v=${encodeURIComponent(profile.updatedAt)}`} alt="" width={56} height={56} />
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
          <Link to={to({ modal: "notifications", npage: null })} className="icon-btn bell" aria-label={`Notifications, ${data.unread} unread`} preventScrollReset>
            <BellIcon />
            {data.unread > 0 ? (
              <span className="badge-count" aria-hidden="true">
                {data.unread}
              </span>
            ) : null}
          </Link>
        </div>
        <div className="kid-status" aria-label="Phone status">
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
          {data.kids.length > 1 ? <KidSwitcherList kids={data.kids} currentId={profile.id} /> : null}
          <Link className="btn btn-outline btn-small" to={to({ modal: "edit" })} preventScrollReset>
            <EditIcon /> Edit kid
          </Link>
          <Link className="btn btn-outline btn-small" to={`/device-info?${new URLSearchParams({ profile_id: profile.id, serialNumber: device.serialNumber })}`}>
            <PhoneIcon /> Device info
          </Link>
          <Link className="btn btn-outline btn-small" to={`/global-settings?${kidQs}`}>
            <GearIcon /> Global Settings
          </Link>
          <Link className="btn btn-outline btn-small" to={`/location-settings?${kidQs}`}>
            <PinIcon /> Location Settings
          </Link>
        </nav>
      </section>

      {data.pendingRatings.length ? <RatingPanel data={data} /> : null}

      <nav className="tabs" aria-label="Dashboard sections">
        <Link to={to({ tab: null })} aria-current={data.tab === "usage" ? "page" : undefined} className="tab">
          Usage
        </Link>
        <Link to={to({ tab: "info" })} aria-current={data.tab === "info" ? "page" : undefined} className="tab">
          Info
        </Link>
      </nav>

      {waiting.length ? (
        <div className="banner banner-info" role="status" data-testid="waiting">
          Waiting for {profile.name}&apos;s phone to confirm {waiting.join(" and ")}. This page updates by itself;{" "}
          <Link to={to({})} reloadDocument>
            reload
          </Link>{" "}
          to check now.
        </div>
      ) : null}

      {data.tab === "usage" && data.usage ? (
        <>
          <section className="card" aria-labelledby="controls-title">
            <h2 id="controls-title" className="sr-only">
              Controls
            </h2>
            <div className="control-grid">
              <Link to={to({ modal: "sleep" })} className={`control ack-${sleepColour}`} preventScrollReset data-testid="sleep-control">
                <MoonIcon />
                <span>
                  <strong>Sleep mode</strong>
                  <span className="small">
                    {profile.sleepMode ? "On" : "Off"} · {data.ack.sleepModeAcknowledged ? (profile.sleepMode ? "confirmed" : "phone in use") : ACK_LABEL.warning}
                  </span>
                </span>
              </Link>
              <Link to={to({ modal: "protection" })} className={`control ack-${protColour}`} preventScrollReset data-testid="protection-control">
                <LockIcon open={!device.protectionEnabled} />
                <span>
                  <strong>App protection</strong>
                  <span className="small">
                    {device.protectionEnabled ? "Locked" : "Unlocked"} · {data.ack.protectionAcknowledged ? "confirmed" : ACK_LABEL.warning}
                  </span>
                </span>
              </Link>
              <Link to={to({ modal: "recommendation" })} className="control" preventScrollReset>
                <ClockIcon />
                <span>
                  <strong>Screen time tips</strong>
                  <span className="small">For age {data.age}</span>
                </span>
              </Link>
            </div>
          </section>

          <LocationCard data={data} />

          <section className="card" aria-labelledby="activity-title">
            <div className="row-between">
              <h2 id="activity-title">Activity</h2>
              <div className="segmented" role="group" aria-label="Period">
                <Link to={to({ filter: null, week: null, date: null, apps: null, cats: null })} aria-current={data.period.filter === "day" ? "true" : undefined} preventScrollReset>
                  Day
                </Link>
                <Link to={to({ filter: "week", week: null, date: null, apps: null, cats: null })} aria-current={data.period.filter === "week" ? "true" : undefined} preventScrollReset>
                  Week
                </Link>
              </div>
            </div>
            <div className="period-nav">
              {data.period.prev ? (
                <Link
                  className="icon-btn"
                  to={to({ date: data.period.prev.date ?? null, week: data.period.prev.week ?? null })}
                  aria-label={data.period.filter === "day" ? "Previous day" : "Previous Week"}
                  preventScrollReset
                >
                  <ChevronIcon dir="left" />
                </Link>
              ) : (
                <span className="icon-btn disabled" aria-hidden="true">
                  <ChevronIcon dir="left" />
                </span>
              )}
              <strong className="period-label" aria-live="polite" data-testid="period-label">
                {data.period.label}
              </strong>
              {data.period.next ? (
                <Link
                  className="icon-btn"
                  to={to({ date: data.period.next.date ?? null, week: data.period.next.week === "current" ? null : (data.period.next.week ?? null) })}
                  aria-label={data.period.filter === "day" ? "Next day" : "This Week"}
                  preventScrollReset
                >
                  <ChevronIcon dir="right" />
                </Link>
              ) : (
                <span className="icon-btn disabled" aria-hidden="true">
                  <ChevronIcon dir="right" />
                </span>
              )}
            </div>
            <p className="total-time">
              <span className="muted">Screen time</span> <strong data-testid="total-time">{formatMinutes(data.usage.totalUsedTime)}</strong>
            </p>
            <CategoryChartFigure svg={data.usage.chartSvg} data={data.usage.chart} title={data.usage.chartTitle} />
          </section>

          <UsageLists data={data} kidQs={kidQs} />

          <p className="muted small center" data-testid="last-update">
            Last Update: {fmtDateTime(device.statusUpdatedAt ?? data.usage.lastUsageAt)}
          </p>
        </>
      ) : (
        <InfoTab data={data} />
      )}

      {modal === "sleep" ? <SleepModal data={data} /> : null}
      {modal === "protection" ? <ProtectionModal data={data} /> : null}
      {modal === "recommendation" ? <RecommendationModal data={data} /> : null}
      {modal === "permissions" ? (
        <Modal title="Missing permissions" closeHref={to({ modal: null })}>
          <p>
            The Kids Portal app on {profile.name}&apos;s phone is <strong>{device.kidsAppStatus}</strong>. Please allow these on the phone:
          </p>
          <p className="banner banner-warning">{device.additionalData || "No details were reported."}</p>
        </Modal>
      ) : null}
      {modal === "edit" ? <EditKidModal data={data} lastResult={editResult} /> : null}
      {modal === "notifications" ? <NotificationsModal data={data} /> : null}
    </div>
  );
}

function LocationCard({ data }: { data: DashData }) {
  const { device, profile } = data;
  const loc = device.lastLocation;
  const busy = useIsSubmitting({ intent: "map-display" });
  return (
    <section className="card" aria-labelledby="location-title">
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
            <PinIcon className="inline-icon" /> {loc.latitude.toFixed(5)}, {loc.longitude.toFixed(5)} <span className="muted small">· {fmtDateTime(loc.deviceTime)}</span>
          </p>
          {device.enableLocationMapDisplay ? (
            <iframe className="map-frame" title={`Map of ${profile.name}'s last location`} src={localMapHref(loc.latitude, loc.longitude)} loading="lazy" />
          ) : null}
          <Link to={localMapHref(loc.latitude, loc.longitude)}>Open map</Link>
        </>
      ) : (
        <p className="muted">No location has been reported yet.</p>
      )}
    </section>
  );
}

function UsageLists({ data, kidQs }: { data: DashData; kidQs: string }) {
  const to = useHrefWith();
  const u = data.usage!;
  return (
    <div className="lists">
      <section className="card" aria-labelledby="apps-title">
        <h2 id="apps-title">Most used apps</h2>
        {u.apps.length ? (
          <ul className="usage-list" data-testid="apps-list">
            {u.apps.map((a) => (
              <UsageRow
                key={a.packageName}
                href={`/application?${new URLSearchParams({ package_name: a.packageName, profile_id: data.profile.id, serialNumber: data.device.serialNumber })}`}
                icon={a.icon ? <img src={a.icon} alt="" width={36} height={36} /> : a.title.slice(0, 1)}
                title={a.title}
                badges={
                  <>
                    {isManualInstall(a.playStoreCategory) ? <span className="badge badge-grey">Manually Install</span> : null}
                    {a.isAppDisabled ? <span className="badge badge-red">Disabled</span> : null}
                  </>
                }
                used={a.timeInMinute}
                limit={a.enableDailyLimit ? a.dailyLimit : 0}
                progress={a.progress}
              />
            ))}
          </ul>
        ) : (
          <p className="muted">No apps were used in this period.</p>
        )}
        <MoreLess paging={u.appsPaging} param="apps" to={to} what="apps" />
      </section>
      <section className="card" aria-labelledby="cats-title">
        <h2 id="cats-title">Most used categories</h2>
        {u.categories.length ? (
          <ul className="usage-list" data-testid="categories-list">
            {u.categories.map((c) => (
              <UsageRow
                key={c.category}
                href={`/category?${new URLSearchParams({ id: c.category, ...Object.fromEntries(new URLSearchParams(kidQs)) })}`}
                title={c.name}
                badges={c.isCategoryEnabled ? null : <span className="badge badge-red">Disabled</span>}
                used={c.usedTime}
                limit={c.enableDailyLimit ? c.dailyLimitTime : 0}
                progress={c.progress}
              />
            ))}
          </ul>
        ) : (
          <p className="muted">No categories were used in this period.</p>
        )}
        <MoreLess paging={u.catsPaging} param="cats" to={to} what="categories" />
      </section>
    </div>
  );
}

/** One row of "Most used apps" or "Most used categories": time used, the daily limit and its progress bar. */
function UsageRow(p: {
  href: string;
  icon?: React.ReactNode;
  title: string;
  badges: React.ReactNode;
  used: number;
  limit: number;
  progress: { percent: number; over: boolean };
}) {
  return (
    <li>
      <Link to={p.href} className="usage-item">
        {p.icon !== undefined ? (
          <span className="app-icon" aria-hidden="true">
            {p.icon}
          </span>
        ) : null}
        <span className="usage-main">
          <span className="usage-title">
            {p.title}
            {p.badges}
          </span>
          <span className="muted small">
            {formatMinutes(p.used)}
            {p.limit > 0 ? ` of ${formatMinutes(p.limit)} a day` : ""}
          </span>
          {p.limit > 0 ? <Progress percent={p.progress.percent} over={p.progress.over} label={`${p.title} limit used`} /> : null}
        </span>
      </Link>
    </li>
  );
}

function Progress({ percent, over, label }: { percent: number; over: boolean; label: string }) {
  return (
    <span className={`progress${over ? " over" : ""}`} role="progressbar" aria-label={label} aria-valuenow={percent} aria-valuemin={0} aria-valuemax={100} data-over={over}>
      <span style={{ width: `${percent}%` }} />
    </span>
  );
}

function MoreLess({ paging, param, to, what }: { paging: { showMore: number | null; showLess: number | null; count: number; total: number }; param: string; to: ReturnType<typeof useHrefWith>; what: string }) {
  if (!paging.showMore && !paging.showLess) return null;
  return (
    <div className="more-less">
      {paging.showMore ? (
        <Link to={to({ [param]: paging.showMore })} preventScrollReset replace aria-label={`Show More ${what}`}>
          Show More
        </Link>
      ) : null}
      {paging.showLess ? (
        <Link to={to({ [param]: null })} preventScrollReset replace aria-label={`Show Less ${what}`}>
          Show Less
        </Link>
      ) : null}
    </div>
  );
}

function InfoTab({ data }: { data: DashData }) {
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
      <Link to={`/device-info?${new URLSearchParams({ profile_id: profile.id, serialNumber: device.serialNumber })}`}>All device details</Link>
    </section>
  );
}

function SleepModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "sleep" });
  const on = data.profile.sleepMode;
  return (
    <Modal title="Sleep mode" closeHref={to({ modal: null })}>
      <p>Sleep mode stops {data.profile.name}&apos;s access to the phone until you turn it off.</p>
      <p className={`ack-line ack-${ackColour(on, data.ack.sleepModeAcknowledged)}`}>
        <MoonIcon /> Sleep mode is <strong>{on ? "on" : "off"}</strong>
        {data.ack.sleepModeAcknowledged ? " and the phone has confirmed it." : ` — waiting for ${data.profile.name}'s phone to confirm.`}
      </p>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="sleep" />
        <input type="hidden" name="profileId" value={data.profile.id} />
        <input type="hidden" name="sleepMode" value={on ? "off" : "on"} />
        <button type="submit" className="switch big" role="switch" aria-checked={on} disabled={busy}>
          <span className="switch-track" aria-hidden="true" />
          <span>{on ? "Turn sleep mode off" : "Turn sleep mode on"}</span>
        </button>
      </Form>
    </Modal>
  );
}

function ProtectionModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "protection" });
  const locked = data.device.protectionEnabled;
  return (
    <Modal title="App protection" closeHref={to({ modal: null })}>
      <p>When locked, {data.profile.name} cannot change the Kids Portal app&apos;s settings or remove it.</p>
      <p className={`ack-line ack-${ackColour(locked, data.ack.protectionAcknowledged)}`}>
        <LockIcon open={!locked} /> Protection is <strong>{locked ? "locked" : "unlocked"}</strong>
        {data.ack.protectionAcknowledged ? " and the phone has confirmed it." : ` — waiting for ${data.profile.name}'s phone to confirm.`}
      </p>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="protection" />
        <input type="hidden" name="profileId" value={data.profile.id} />
        <fieldset className="choice-row">
          <legend>Protection</legend>
          <label className="choice">
            <input type="radio" name="protection" value="locked" defaultChecked={locked} />
            <LockIcon /> Locked
          </label>
          <label className="choice">
            <input type="radio" name="protection" value="unlocked" defaultChecked={!locked} />
            <LockIcon open /> Unlocked
          </label>
        </fieldset>
        <div className="modal-actions">
          <SubmitButton busy={busy} className="btn">
            Save
          </SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

function RecommendationModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const r = data.recommendation;
  return (
    <Modal title="Screen time recommendation" closeHref={to({ modal: null })}>
      <p>
        {data.profile.name} is {data.age} years old.
      </p>
      {r ? (
        <div className="recommendation" data-bracket={r.bracket}>
          <h3>{r.title}</h3>
          <p>{r.text}</p>
          {r.voucherTemplate ? (
            <p>
              <a href={`/resources/media-vouchers?hours=${r.weeklyHours}&name=${encodeURIComponent(data.profile.name)}`} target="_blank" rel="noreferrer">
                Open the media-voucher template
              </a>
            </p>
          ) : null}
        </div>
      ) : (
        <p className="muted" data-bracket="none">
          There is no recommendation for this age.
        </p>
      )}
    </Modal>
  );
}

/** A parent without any kid starts here: the kid's details, then the phone's QR code. */
function AddKidForm({ lastResult, currentYear }: { lastResult: unknown; currentYear: number }) {
  const busy = useIsSubmitting({ intent: "add-kid" });
  const schema = addKidSchema(currentYear);
  const [form, fields] = useForm({
    id: "add-kid",
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    lastResult: lastResult as any,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="stack add-kid" aria-labelledby="add-kid-title">
      <h2 id="add-kid-title">Add your kid</h2>
      <input type="hidden" name="intent" value="add-kid" />
      <Field label="Kid's name" id={fields.kidName.id} errors={fields.kidName.errors}>
        <input {...getInputProps(fields.kidName, { type: "text" })} autoComplete="off" />
      </Field>
      <div className="two-col">
        <Field label="Birth month" id={fields.birthMonth.id} errors={fields.birthMonth.errors}>
          <select {...getSelectProps(fields.birthMonth)}>
            <option value="">Choose…</option>
            {MONTHS.map((m, i) => (
              <option key={m} value={i + 1}>
                {m}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Birth year" id={fields.birthYear.id} errors={fields.birthYear.errors}>
          <input {...getInputProps(fields.birthYear, { type: "number" })} inputMode="numeric" />
        </Field>
      </div>
      <SubmitButton busy={busy} className="btn">
        Add kid
      </SubmitButton>
    </Form>
  );
}

function EditKidModal({ data, lastResult }: { data: DashData; lastResult: unknown }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "edit-kid" });
  const currentYear = data.currentYear;
  const schema = editKidSchema(currentYear);
  const [form, fields] = useForm({
    id: "edit-kid",
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    lastResult: lastResult as any,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue: { kidName: data.profile.name, birthMonth: String(data.profile.birthMonth), birthYear: String(data.profile.birthYear) },
  });
  return (
    <Modal title="Edit kid" closeHref={to({ modal: null })}>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="stack" preventScrollReset>
        <input type="hidden" name="intent" value="edit-kid" />
        <input type="hidden" name="profileId" value={data.profile.id} />
        <Field label="Name" id={fields.kidName.id} errors={fields.kidName.errors}>
          <input {...getInputProps(fields.kidName, { type: "text" })} autoComplete="off" />
        </Field>
        <div className="two-col">
          <Field label="Birth month" id={fields.birthMonth.id} errors={fields.birthMonth.errors}>
            <select {...getSelectProps(fields.birthMonth)}>
              {MONTHS.map((m, i) => (
                <option key={m} value={i + 1}>
                  {m}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Birth year" id={fields.birthYear.id} errors={fields.birthYear.errors}>
            <input {...getInputProps(fields.birthYear, { type: "number" })} inputMode="numeric" />
          </Field>
        </div>
        {data.parent.hideGoogle ? null : (
          <Field label="Picture (optional, up to 3 MB)" id={fields.picture.id} errors={fields.picture.errors}>
            <input id={fields.picture.id} name={fields.picture.name} type="file" accept="image/png,image/jpeg,image/gif,image/webp" />
          </Field>
        )}
        {form.errors?.length ? (
          <p className="field-error" role="alert">
            {form.errors.join(" ")}
          </p>
        ) : null}
        <div className="modal-actions">
          <Link to={to({ modal: null })} className="btn btn-outline">
            Cancel
          </Link>
          <SubmitButton busy={busy} className="btn">
            Save
          </SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

function NotificationsModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const n = data.notifications;
  return (
    <Modal title="Notifications" closeHref={to({ modal: null, npage: null })}>
      {n && n.items.length ? (
        <>
          <ul className="notification-list" data-testid="notifications">
            {n.items.map((item) => (
              <li key={item.id} className={`notification type-${item.type}`}>
                <InfoIcon />
                <div>
                  <p>{item.message}</p>
                  <p className="muted small">{fmtDateTime(item.created_at)}</p>
                </div>
              </li>
            ))}
          </ul>
          <p className="muted small">
            Showing {n.items.length} of {n.total}
          </p>
          {n.items.length < n.total ? (
            <Link className="btn btn-outline btn-small" to={to({ npage: n.pages + 1 })} preventScrollReset replace>
              Load more
            </Link>
          ) : null}
        </>
      ) : (
        <p className="muted">No notifications yet.</p>
      )}
    </Modal>
  );
}

function RatingPanel({ data }: { data: DashData }) {
  const busy = useIsSubmitting({ intent: "rating-shown" });
  return (
    <section className="card rating-panel" role="dialog" aria-modal="false" aria-labelledby="rating-title" data-testid="rating-popup">
      <div className="row-between">
        <h2 id="rating-title">Rate {data.profile.name}&apos;s new apps</h2>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="rating-shown" />
          <input type="hidden" name="profileId" value={data.profile.id} />
          <button type="submit" className="icon-btn" aria-label="Close app rating" disabled={busy}>
            ×
          </button>
        </Form>
      </div>
      <p className="muted small">Your rating helps other parents. Tap an app to rate it.</p>
      <ul className="rating-apps">
        {data.pendingRatings.map((a) => (
          <li key={a.id}>
            <Link
              to={`/application?${new URLSearchParams({ package_name: a.package_name, profile_id: data.profile.id, serialNumber: data.device.serialNumber, showRating: "true" })}`}
              className="chip"
            >
              {a.title}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
