import { Link } from "@remix-run/react";
import { useRef } from "react";
import { useDetailsMenu } from "~/utils/dialog";
import { phoneStateLabel } from "~/rules/kids";
import { ChevronIcon } from "./icons";
import { useHrefWith } from "./url";

export interface SwitcherKid {
  id: string;
  name: string;
  serialNumber: string | null;
  phone: "none" | "online" | "offline";
  lastSeen: string | null;
  /** False for a kid delegated to this parent by its owner. */
  own?: boolean;
  ownerName?: string;
}

/** "Switch kid": every kid of the family with its phone's state, the current one marked, and "Add a kid". */
export function KidSwitcherList({ kids, currentId }: { kids: SwitcherKid[]; currentId: string | null }) {
  const to = useHrefWith();
  const menu = useRef<HTMLDetailsElement>(null);
  useDetailsMenu(menu);
  return (
    <details className="kid-switch" ref={menu}>
      <summary className="btn btn-outline btn-small">
        Switch kid <ChevronIcon dir="down" />
      </summary>
      <nav aria-label="Kids">
        <ul>
          {kids.map((k) => (
            <li key={k.id}>
              <Link to={`/kids-device?profileId=${k.id}`} aria-current={k.id === currentId ? "page" : undefined}>
                {k.name}
                <span className={`muted small phone-${k.phone}`}> · {phoneStateLabel(k)}</span>
                {k.own === false ? (
                  <span className="muted small" data-testid="kid-owner">
                    {" "}
                    · {k.ownerName}&apos;s kid
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
          <li className="kid-switch-add">
            <Link to={to({ modal: "add-kid" })} preventScrollReset>
              + Add a kid
            </Link>
          </li>
        </ul>
      </nav>
    </details>
  );
}
