import type { LoaderFunctionArgs } from "@remix-run/node";
import { ICON_INITIALS, ICON_PACKAGE, iconSvg } from "#core/app-icon";

/**
 * A drawn app icon (core/app-icon.ts `generatedIconHref`): /resources/app-icon?p=<package>&t=<initials>. The
 * picture depends on nothing but the address and carries nothing of anyone's (a colour from the package name, the
 * letters in the address), so it needs no sign-in and any cache may keep it for good.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const p = url.searchParams.get("p") ?? "";
  const t = url.searchParams.get("t") ?? "";
  if (!ICON_PACKAGE.test(p) || !ICON_INITIALS.test(t)) throw new Response("Icon not found.", { status: 404 });
  return new Response(iconSvg(p, t), {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
      // An SVG opened on its own runs no script and loads nothing.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
