/** Small inline SVG icons (no icon font, no network): decorative, so every use carries its own text label. */
type P = { className?: string; title?: string };

function Svg({ className, title, children }: P & { children: React.ReactNode }) {
  return (
    <svg
      className={`icon ${className ?? ""}`}
      viewBox="0 0 24 24"
      width="24"
      height="24"
      aria-hidden={title ? undefined : true}
      role={title ? "img" : undefined}
      focusable="false"
    >
      {title ? <title>{title}</title> : null}
      {children}
    </svg>
  );
}

export function MoonIcon(p: P) {
  return (
    <Svg {...p}>
      <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z" fill="currentColor" />
    </Svg>
  );
}

export function LockIcon({ open, ...p }: P & { open?: boolean }) {
  return (
    <Svg {...p}>
      <rect x="5" y="10.5" width="14" height="10" rx="2" fill="currentColor" />
      <path
        d={open ? "M8 10.5V7a4 4 0 0 1 7.7-1.5" : "M8 10.5V7a4 4 0 0 1 8 0v3.5"}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </Svg>
  );
}

export function ClockIcon(p: P) {
  return (
    <Svg {...p}>
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 7v5l3.5 2" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </Svg>
  );
}

export function WarningIcon(p: P) {
  return (
    <Svg {...p}>
      <path d="M12 3 2 21h20L12 3Z" fill="currentColor" />
      <path d="M12 10v5M12 17.5v.5" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </Svg>
  );
}

export function BellIcon(p: P) {
  return (
    <Svg {...p}>
      <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4l2-2Z" fill="currentColor" />
      <path d="M10 20a2 2 0 0 0 4 0" fill="currentColor" />
    </Svg>
  );
}

export function PinIcon(p: P) {
  return (
    <Svg {...p}>
      <path d="M12 22s7-6.5 7-12a7 7 0 0 0-14 0c0 5.5 7 12 7 12Z" fill="currentColor" />
      <circle cx="12" cy="10" r="2.6" fill="#fff" />
    </Svg>
  );
}

export function WifiIcon({ on, ...p }: P & { on: boolean }) {
  return (
    <Svg {...p}>
      <path
        d="M2.5 9a14 14 0 0 1 19 0M5.5 12.5a9.5 9.5 0 0 1 13 0M8.5 16a5 5 0 0 1 7 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        opacity={on ? 1 : 0.35}
      />
      <circle cx="12" cy="19" r="1.6" fill="currentColor" />
      {on ? null : <path d="M4 4l16 16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
    </Svg>
  );
}

export function BatteryIcon({ level, ...p }: P & { level: "full" | "half" | "low" | "unknown" }) {
  const width = level === "full" ? 14 : level === "half" ? 8 : level === "low" ? 3 : 0;
  return (
    <Svg {...p}>
      <rect x="2" y="7" width="18" height="10" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <rect x="20.5" y="10" width="2" height="4" rx="1" fill="currentColor" />
      <rect x="4" y="9" width={width} height="6" rx="1" fill="currentColor" />
    </Svg>
  );
}

export function GearIcon(p: P) {
  return (
    <Svg {...p}>
      <circle cx="12" cy="12" r="3.2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path
        d="M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </Svg>
  );
}

export function PhoneIcon(p: P) {
  return (
    <Svg {...p}>
      <rect x="6" y="2.5" width="12" height="19" rx="2.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="18" r="1.1" fill="currentColor" />
    </Svg>
  );
}

export function ChevronIcon({ dir, ...p }: P & { dir: "left" | "right" | "down" }) {
  const d = dir === "left" ? "M15 5l-7 7 7 7" : dir === "right" ? "M9 5l7 7-7 7" : "M5 9l7 7 7-7";
  return (
    <Svg {...p}>
      <path d={d} fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </Svg>
  );
}

export function EditIcon(p: P) {
  return (
    <Svg {...p}>
      <path d="M4 20h4L19 9l-4-4L4 16v4Z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
    </Svg>
  );
}

export function InfoIcon(p: P) {
  return (
    <Svg {...p}>
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 11v6M12 7.5v.5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </Svg>
  );
}
