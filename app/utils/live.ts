import { useEffect } from "react";
import { useRevalidator } from "@remix-run/react";

/**
 * With JavaScript: listens on GET /events and revalidates the page when the server says this kid's state
 * changed (the phone acknowledged, a delayed reload fired). A stream refused because the session ended
 * (is_logout) sends the parent to /login. Without JavaScript nothing runs; the page says what it waits for.
 */
export function useLiveRefresh(profileId: string | null | undefined) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/events");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onRefresh = (ev: MessageEvent) => {
      let data: { profileId?: string | null } = {};
      try {
        data = JSON.parse(String(ev.data)) as typeof data;
      } catch {
        /* ignore malformed events */
      }
      if (data.profileId && profileId && data.profileId !== profileId) return;
      clearTimeout(timer);
      timer = setTimeout(() => revalidator.revalidate(), 150);
    };
    const onError = () => {
      if (source.readyState !== EventSource.CLOSED) return;
      void fetch("/resources/notifications?count=1", { headers: { Accept: "application/json" } })
        .then((r) => r.json() as Promise<{ is_logout?: number }>)
        .then((body) => {
          if (body.is_logout === 1) window.location.assign("/login");
        })
        .catch(() => undefined);
    };
    source.addEventListener("refresh", onRefresh as EventListener);
    source.addEventListener("error", onError);
    return () => {
      clearTimeout(timer);
      source.close();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [profileId]);
}
