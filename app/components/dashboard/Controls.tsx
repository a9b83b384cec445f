import { Link } from "@remix-run/react";
import { formatMinutes } from "~/rules/minutes";
import { ackColour, type AckColour } from "~/rules/status";
import { ClockIcon, LockIcon, MoonIcon } from "./icons";
import type { DashData } from "./types";
import { useHrefWith } from "./url";

const ACK_LABEL: Record<AckColour, string> = { green: "confirmed by the phone", warning: "waiting for the phone", off: "off" };

/** The controls: sleep mode and app protection (green once the phone confirmed), bonus time given today, and the screen-time tips. */
export function Controls({ data }: { data: DashData }) {
  const to = useHrefWith();
  const { profile, device } = data;
  const sleepColour = ackColour(profile.sleepMode, data.ack.sleepModeAcknowledged);
  const protColour = ackColour(device.protectionEnabled, data.ack.protectionAcknowledged);
  return (
    <section className="card" id="controls" aria-labelledby="controls-title">
      <h2 id="controls-title" className="sr-only">
        Controls
      </h2>
      <div className="control-grid">
        <Link to={to({ modal: "sleep" })} className={`control ack-${sleepColour}`} preventScrollReset data-testid="sleep-control">
          <MoonIcon />
          <span>
            <strong>Sleep mode</strong>
            <span className="small">
              {profile.sleepMode ? "On" : "Off"} ·{" "}
              {data.ack.sleepModeAcknowledged ? (profile.sleepMode ? "confirmed" : "phone in use") : ACK_LABEL.warning}
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
        <Link to={to({ modal: "bonus" })} className="control" preventScrollReset data-testid="bonus-control">
          <ClockIcon />
          <span>
            <strong>Bonus time</strong>
            <span className="small">{data.bonus.given > 0 ? `${formatMinutes(data.bonus.given)} given today` : "None today"}</span>
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
  );
}
