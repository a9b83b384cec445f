import { appIconHref } from "#core/app-icon";

/**
 * An app's icon, drawn one way on every page (lists, store, app page, requests, reports): the store's icon when
 * there is one, else its initials on the package's colour (core/app-icon.ts, the picture the kid's phone gets too).
 * Decorative: the app's name is always written beside it.
 */
export function AppIcon({
  packageName,
  title,
  icon,
  size = 36,
}: {
  packageName: string;
  title: string;
  /** The store's icon (an http(s) address), or what a list already resolved; anything else draws the initials. */
  icon: string | null | undefined;
  size?: 32 | 36 | 48 | 56;
}) {
  return (
    <img
      className="app-icon"
      src={appIconHref(packageName, title, icon)}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
    />
  );
}
