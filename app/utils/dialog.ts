import { useEffect, useRef, type RefObject } from "react";
import { useLocation } from "@remix-run/react";
import { FOCUSABLE, isNewPage, wrapFocus, type Place } from "./focus";

/**
 * With JavaScript, a popup is a real dialog: focus moves in, Tab stays inside, Escape closes it, and focus goes
 * back to what opened it. Without JavaScript nothing here runs and the popup stays URL-driven (`?modal=`).
 */
export function useDialog(ref: RefObject<HTMLElement>, close: () => void) {
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (!dialog.contains(document.activeElement)) dialog.focus();
    const controls = () =>
      [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        closeRef.current();
        return;
      }
      if (e.key !== "Tab") return;
      const items = controls();
      const active =
        document.activeElement instanceof HTMLElement && items.includes(document.activeElement) ? document.activeElement : null;
      const next = wrapFocus(items, active, e.shiftKey);
      if (next || !dialog.contains(document.activeElement)) {
        e.preventDefault();
        (next ?? dialog).focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      if (!opener?.isConnected) return;
      opener.focus();
      // An opener inside a menu that has closed since (Logout, Add a kid): its menu button instead.
      if (document.activeElement !== opener) opener.closest("details")?.querySelector<HTMLElement>(":scope > summary")?.focus();
    };
  }, [ref]);
}

/**
 * A `<details>` menu (side menu, kid switcher) that, with JavaScript, closes after a choice, on a click outside
 * and on Escape (focus back on its button). Without JavaScript it opens and closes with its summary as today.
 */
export function useDetailsMenu(ref: RefObject<HTMLDetailsElement>) {
  const { key } = useLocation();
  useEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || !menu.open) return;
      menu.open = false;
      menu.querySelector<HTMLElement>(":scope > summary")?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (menu.open && e.target instanceof Node && !menu.contains(e.target)) menu.open = false;
    };
    const onChoice = (e: MouseEvent) => {
      if (e.target instanceof Element && e.target.closest("a[href]") && menu.contains(e.target)) menu.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    menu.addEventListener("click", onChoice);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
      menu.removeEventListener("click", onChoice);
    };
  }, [ref]);
  // Any navigation (a choice, Back) leaves the menu closed. Not on the first render: a menu opened before the
  // page hydrated (a quick tap after a full page load) stays open.
  const shownKey = useRef(key);
  useEffect(() => {
    if (shownKey.current === key) return;
    shownKey.current = key;
    if (ref.current) ref.current.open = false;
  }, [key, ref]);
}

/** After client-side navigation to a new page, focus goes to its heading (not while a popup holds it). */
export function useFocusHeadingOnNavigation() {
  const { pathname, search } = useLocation();
  const prev = useRef<Place | null>(null);
  useEffect(() => {
    const next = { pathname, search };
    const moved = isNewPage(prev.current, next);
    prev.current = next;
    if (!moved || document.querySelector('[role="dialog"][aria-modal="true"]')) return;
    const heading = document.querySelector<HTMLElement>("main h1") ?? document.querySelector<HTMLElement>("h1");
    if (!heading) return;
    if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
  }, [pathname, search]);
}
