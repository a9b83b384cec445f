import {
  BatteryFull,
  BatteryLow,
  BatteryMedium,
  Battery,
  Bell,
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  CircleDot,
  Clock,
  Compass,
  Globe,
  Info,
  Lock,
  LockOpen,
  MapPin,
  Menu,
  Minus,
  Moon,
  Pencil,
  Plus,
  Receipt,
  Settings,
  Smartphone,
  Star,
  TriangleAlert,
  Wifi,
  WifiOff,
  X,
  type LucideIcon,
} from "lucide-react";

/**
 * The product's one icon set: Lucide (lucide-react), drawn inline as SVG (no icon font, no network, no emoji).
 * Every icon is decorative (`aria-hidden`) unless it gets a `title`, so each use carries its own text label or
 * sits in a control that has an accessible name.
 */
type P = { className?: string; title?: string };

function icon(Icon: LucideIcon, { className, title }: P) {
  const cls = `icon${className ? ` ${className}` : ""}`;
  return title ? (
    <Icon className={cls} role="img" aria-label={title} focusable="false" />
  ) : (
    <Icon className={cls} aria-hidden="true" focusable="false" />
  );
}

export const MoonIcon = (p: P) => icon(Moon, p);
export const LockIcon = ({ open, ...p }: P & { open?: boolean }) => icon(open ? LockOpen : Lock, p);
export const ClockIcon = (p: P) => icon(Clock, p);
export const CompassIcon = (p: P) => icon(Compass, p);
export const WarningIcon = (p: P) => icon(TriangleAlert, p);
export const BellIcon = (p: P) => icon(Bell, p);
export const PinIcon = (p: P) => icon(MapPin, p);
export const GlobeIcon = (p: P) => icon(Globe, p);
export const WifiIcon = ({ on, ...p }: P & { on: boolean }) => icon(on ? Wifi : WifiOff, p);
export const BatteryIcon = ({ level, ...p }: P & { level: "full" | "half" | "low" | "unknown" }) =>
  icon(level === "full" ? BatteryFull : level === "half" ? BatteryMedium : level === "low" ? BatteryLow : Battery, p);
export const GearIcon = (p: P) => icon(Settings, p);
export const PhoneIcon = (p: P) => icon(Smartphone, p);
export const ChevronIcon = ({ dir, ...p }: P & { dir: "left" | "right" | "down" }) =>
  icon(dir === "left" ? ChevronLeft : dir === "right" ? ChevronRight : ChevronDown, p);
export const EditIcon = (p: P) => icon(Pencil, p);
export const InfoIcon = (p: P) => icon(Info, p);
export const MenuIcon = (p: P) => icon(Menu, p);
export const CloseIcon = (p: P) => icon(X, p);
export const StarIcon = (p: P) => icon(Star, p);
export const MinusIcon = (p: P) => icon(Minus, p);
export const PlusIcon = (p: P) => icon(Plus, p);
export const ReceiptIcon = (p: P) => icon(Receipt, p);
/** The brand's mark beside "Kids Portal" in the headers. */
export const BrandMark = (p: P) => icon(CircleDot, { ...p, className: `brand-mark${p.className ? ` ${p.className}` : ""}` });
