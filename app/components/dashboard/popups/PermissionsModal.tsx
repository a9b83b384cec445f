import { Modal } from "~/components/layout";
import type { DashData } from "../types";
import { useHrefWith } from "../url";

/** ?modal=permissions: what the kids app is missing on the phone. */
export function PermissionsModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const { profile, device } = data;
  return (
    <Modal title="Missing permissions" closeHref={to({ modal: null })}>
      <p>
        The Kids Portal app on {profile.name}&apos;s phone is <strong>{device.kidsAppStatus}</strong>. Please allow these on the phone:
      </p>
      <p className="banner banner-warning">{device.additionalData || "No details were reported."}</p>
    </Modal>
  );
}
