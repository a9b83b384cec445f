import { Link } from "@remix-run/react";
import { AddKidForm } from "./AddKidForm";
import { KidSwitcherList } from "./KidSwitcher";
import { EnrollModal } from "./popups/EnrollModal";
import { AddKidModal, RemoveKidModal } from "./popups/FamilyModals";
import type { ActionData, NoDevData } from "./types";
import { useHrefWith } from "./url";
import { Warnings } from "./Warnings";

/** No phone yet: add the first kid, or show the chosen kid's enrollment QR code. */
export function NoDevices({ data, actionData }: { data: NoDevData; actionData: ActionData }) {
  const to = useHrefWith();
  const enroll = actionData && "intent" in actionData && actionData.intent === "enroll" ? actionData : null;
  const addKidResult = actionData && "intent" in actionData && actionData.intent === "add-kid" ? actionData.result : undefined;
  const modal = addKidResult && data.kid ? "add-kid" : data.modal;
  const own = data.kids.find((k) => k.id === data.kid?.id)?.own ?? false;
  return (
    <div className="stack">
      <Warnings parent={data.parent} />
      {data.kids.length ? <KidSwitcherList kids={data.kids} currentId={data.kid?.id ?? null} /> : null}
      <section className="card center empty-state">
        <h1>Kids Devices</h1>
        <p>No devices have been added yet.</p>
        {data.kid ? (
          <p className="button-row">
            <Link className="btn" to={to({ modal: "enroll" })} preventScrollReset>
              Add {data.kid.name}&apos;s phone
            </Link>
            {own ? (
              <Link className="btn btn-outline" to={to({ modal: "remove-kid" })} preventScrollReset>
                Remove {data.kid.name}
              </Link>
            ) : null}
          </p>
        ) : (
          <AddKidForm lastResult={addKidResult} currentYear={new Date().getUTCFullYear()} />
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
      {modal === "enroll" && data.kid ? <EnrollModal kid={data.kid} enroll={enroll} /> : null}
      {modal === "add-kid" && data.kid ? <AddKidModal lastResult={addKidResult} currentYear={new Date().getUTCFullYear()} /> : null}
      {modal === "remove-kid" && data.kid && own ? <RemoveKidModal kid={data.kid} serialNumber={null} /> : null}
    </div>
  );
}
