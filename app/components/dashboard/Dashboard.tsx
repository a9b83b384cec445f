import { Link } from "@remix-run/react";
import { Tabs } from "~/components/Tabs";
import { useLiveRefresh } from "~/utils/live";
import { formatDateTime as fmtDateTime } from "#core/format";
import { ActivityCard } from "./ActivityCard";
import { Controls } from "./Controls";
import { InfoTab } from "./InfoTab";
import { InstallsCard } from "./InstallsCard";
import { KidHeader } from "./KidHeader";
import { LocationCard } from "./LocationCard";
import { BonusModal } from "./popups/BonusModal";
import { EditKidModal } from "./popups/EditKidModal";
import { AddKidModal, RemoveKidModal, ReplacePhoneModal } from "./popups/FamilyModals";
import { NotificationsModal } from "./popups/NotificationsModal";
import { PermissionsModal } from "./popups/PermissionsModal";
import { ProtectionModal } from "./popups/ProtectionModal";
import { RecommendationModal } from "./popups/RecommendationModal";
import { SleepModal } from "./popups/SleepModal";
import { RatingPanel } from "./RatingPanel";
import type { ActionData, DashData } from "./types";
import { useHrefWith } from "./url";
import { UsageLists } from "./UsageLists";
import { Warnings } from "./Warnings";

/**
 * The kid dashboard (spec 1 §4, §5): it composes its sections — header and switcher (KidHeader), controls,
 * activity chart, the new apps to rate and the installs, location, most-used lists, the Info tab — and the popup
 * named by `?modal=` (popups/). A phone's first screen holds the kid's status, the controls and the screen time.
 */
export function DashboardView({ data, actionData }: { data: DashData; actionData: ActionData }) {
  const to = useHrefWith();
  useLiveRefresh(data.profile.id);
  const { profile, device } = data;
  const kidQs = new URLSearchParams({ profileId: profile.id, serialNumber: device.serialNumber }).toString();
  const waiting = [
    !data.ack.sleepModeAcknowledged ? "sleep mode" : null,
    !data.ack.protectionAcknowledged ? "app protection" : null,
  ].filter(Boolean);
  const editResult = actionData && "intent" in actionData && actionData.intent === "edit-kid" ? actionData.result : undefined;
  const addKidResult = actionData && "intent" in actionData && actionData.intent === "add-kid" ? actionData.result : undefined;
  const bonusError =
    actionData && "intent" in actionData && actionData.intent === "bonus" && "error" in actionData ? actionData.error : null;
  const modal = editResult ? "edit" : addKidResult ? "add-kid" : bonusError ? "bonus" : data.modal;
  const own = data.kids.find((k) => k.id === profile.id)?.own ?? false;
  // The new apps to rate and the installs on their way: after the kid's status, controls and today's screen time,
  // which a phone shows first (issue 53 item 5).
  const notices = (
    <>
      {data.pendingRatings.length ? <RatingPanel data={data} /> : null}
      <InstallsCard data={data} />
    </>
  );

  return (
    <div className="stack dashboard">
      <Warnings
        parent={data.parent}
        fullAccess={device.allowFullDeviceAccess}
        profileId={profile.id}
        serialNumber={device.serialNumber}
        privateDns={data.privateDns}
      />

      <KidHeader data={data} kidQs={kidQs} />

      <Tabs
        label="Dashboard sections"
        items={[
          { label: "Usage", to: to({ tab: null }), current: data.tab === "usage" },
          { label: "Info", to: to({ tab: "info" }), current: data.tab === "info" },
        ]}
      />

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
          <Controls data={data} />

          <ActivityCard data={data} usage={data.usage} />

          {notices}

          <LocationCard data={data} />

          <UsageLists data={data} kidQs={kidQs} />

          <p className="muted small center" data-testid="last-update">
            Last Update: {fmtDateTime(device.statusUpdatedAt ?? data.usage.lastUsageAt)}
          </p>
        </>
      ) : (
        <>
          <InfoTab data={data} own={own} />

          {notices}
        </>
      )}

      {modal === "sleep" ? <SleepModal data={data} /> : null}
      {modal === "bonus" ? <BonusModal data={data} error={bonusError} /> : null}
      {modal === "protection" ? <ProtectionModal data={data} /> : null}
      {modal === "recommendation" ? <RecommendationModal data={data} /> : null}
      {modal === "permissions" ? <PermissionsModal data={data} /> : null}
      {modal === "edit" ? <EditKidModal data={data} lastResult={editResult} /> : null}
      {modal === "notifications" ? <NotificationsModal data={data} /> : null}
      {modal === "add-kid" ? <AddKidModal lastResult={addKidResult} currentYear={data.currentYear} /> : null}
      {modal === "replace-phone" ? <ReplacePhoneModal kid={profile} serialNumber={device.serialNumber} /> : null}
      {modal === "remove-kid" && own ? <RemoveKidModal kid={profile} serialNumber={device.serialNumber} /> : null}
    </div>
  );
}
