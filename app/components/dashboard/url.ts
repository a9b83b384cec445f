import { useLocation } from "@remix-run/react";

/** Links that change view state keep the rest of the URL: `to({ tab: "info", modal: null })`. */
export function useHrefWith() {
  const location = useLocation();
  return (changes: Record<string, string | number | null>) => {
    const params = new URLSearchParams(location.search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === "") params.delete(k);
      else params.set(k, String(v));
    }
    const qs = params.toString();
    return `${location.pathname}${qs ? `?${qs}` : ""}`;
  };
}
