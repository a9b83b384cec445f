import { useEffect, useRef } from "react";
import { useNavigation, useRevalidator } from "@remix-run/react";

/**
 * With JavaScript: listens on GET /events and revalidates the page when the server says this kid's state
 * changed (the phone acknowledged, a delayed reload fired). A stream refused because the session ended
 * (is_logout) sends the parent to /login. Without JavaScript nothing runs; the page says what it waits for.
 * While a form is being submitted (or its redirect loads) the refresh waits: the submission reloads the page
 * itself, and a refresh racing its redirect could read the action's toast away from it.
 */
export function useLiveRefresh(profileId: string | null | undefined) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const busy = useRef(false);
  busy.current = navigation.state !== "idle";
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
      const fire = () => {
        if (busy.current) timer = setTimeout(fire, 250);
        else revalidator.revalidate();
      };
      timer = setTimeout(fire, 150);
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
