import { Link } from "@remix-run/react";
import type { PrivateDnsView } from "#device-service/private-dns";

/** What the dashboard says of a phone's Private DNS that is not the kid's filter; null when there is nothing to say. */
export function privateDnsWarning(view: PrivateDnsView | null | undefined): string | null {
  if (!view || view.verdict !== "changed" || !view.state) return null;
  if (view.state.mode === "off") return "Private DNS is off on this phone: the web filter does not apply.";
  if (view.state.mode === "opportunistic") return "Private DNS on this phone is set to Automatic: the web filter does not apply.";
  return `Private DNS on this phone is set to another server: ${view.state.hostname ?? ""}. The web filter does not apply.`;
}

/**
 * The banners above a kid's page: the default password, full device access on this phone, and a phone whose Private
 * DNS is not the kid's web filter (off, Automatic or another server: the filter sees none of its lookups).
 */
export function Warnings({
  parent,
  fullAccess,
  profileId,
  serialNumber,
  privateDns,
}: {
  parent: { useDefaultPassword: boolean };
  fullAccess?: boolean;
  profileId?: string;
  serialNumber?: string;
  privateDns?: PrivateDnsView | null;
}) {
  const dnsWarning = privateDnsWarning(privateDns);
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
      {dnsWarning && profileId && serialNumber ? (
        <div className="banner banner-warning" role="alert" data-testid="private-dns-warning">
          {dnsWarning}{" "}
          <Link to={`/web-filter?${new URLSearchParams({ profileId, serialNumber })}#private-dns`}>See the Private DNS steps</Link>
        </div>
      ) : null}
    </>
  );
}
