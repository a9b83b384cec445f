import { useEffect, useRef, useState } from "react";
import { whenInView } from "~/utils/in-view";

/**
 * The embedded map (the /map page in a frame), loaded once its place on the page comes near the screen: the frame
 * is a page of its own (its scripts, Leaflet, its tiles), which a dashboard opened at the top need not pay for while
 * it loads. Without JavaScript the frame is in the HTML (`<noscript>`) and the browser's own lazy loading applies.
 * The slot keeps the frame's size either way, so nothing moves when it appears.
 */
export function MapFrame({ title, src }: { title: string; src: string }) {
  const slot = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const inView = whenInView(slot.current);
    void inView.ready.then(() => setShown(true));
    return inView.stop;
  }, []);
  const frame = <iframe className="map-frame" title={title} src={src} loading="lazy" />;
  return (
    <div ref={slot} className="map-frame-slot">
      {shown ? frame : <noscript>{frame}</noscript>}
    </div>
  );
}
