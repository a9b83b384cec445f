/**
 * Resolves once `element` comes within `margin` of the screen: the top-level page's viewport, also from inside a
 * frame (the dashboard's map). Heavy widgets wait for it, so a page whose widget sits below the fold does not pay
 * for it while it loads. `stop()` gives up (an unmounted component); without IntersectionObserver it resolves at once.
 */
export function whenInView(element: Element | null, margin = "200px"): { ready: Promise<void>; stop: () => void } {
  if (!element || typeof IntersectionObserver === "undefined") return { ready: Promise.resolve(), stop: () => {} };
  let observer: IntersectionObserver | undefined;
  const ready = new Promise<void>((resolve) => {
    observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer?.disconnect();
        resolve();
      },
      { rootMargin: margin },
    );
    observer.observe(element);
  });
  return { ready, stop: () => observer?.disconnect() };
}
