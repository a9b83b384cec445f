import { Link } from "@remix-run/react";

/** The banners above a kid's page: the default password, and full device access on this phone. */
export function Warnings({
  parent,
  fullAccess,
  profileId,
  serialNumber,
}: {
  parent: { useDefaultPassword: boolean };
  fullAccess?: boolean;
  profileId?: string;
  serialNumber?: string;
}) {
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
