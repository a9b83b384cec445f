export interface ToastData {
  type: "success" | "error" | "info";
  message: string;
}

export interface StackedToast extends ToastData {
  id: number;
  /** When it appeared (ms since the epoch). */
  at: number;
}

/** How long a success or info toast shows, counted from its own appearance (at least 5 s; issue 53). */
export const TOAST_LIFE_MS = 6_000;
/** The same message again this soon is the same toast read twice (a live refresh racing the redirect's load). */
export const SAME_TOAST_MS = 2_000;

interface Timer {
  handle: ReturnType<typeof setTimeout> | null;
  left: number;
  started: number;
}

/**
 * The toasts on screen and their timers: each success or info leaves TOAST_LIFE_MS after its own appearance (a newer
 * toast never shortens an older one's life), errors stay until dismissed, and while paused (the pointer over the
 * stack, or focus in it) no time runs out. The Toaster renders its snapshot.
 */
export class ToastStack {
  private list: readonly StackedToast[] = [];
  private readonly timers = new Map<number, Timer>();
  private readonly listeners = new Set<() => void>();
  private paused = false;
  private nextId = 0;

  constructor(
    private readonly lifeMs = TOAST_LIFE_MS,
    private readonly now: () => number = () => Date.now(),
  ) {}

  snapshot(): readonly StackedToast[] {
    return this.list;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a toast (false when it is the one just shown again). */
  add(toast: ToastData): boolean {
    const at = this.now();
    if (this.list.some((t) => t.type === toast.type && t.message === toast.message && at - t.at < SAME_TOAST_MS)) return false;
    const shown: StackedToast = { type: toast.type, message: toast.message, id: this.nextId++, at };
    this.list = [...this.list, shown];
    if (toast.type !== "error") {
      this.timers.set(shown.id, { handle: null, left: this.lifeMs, started: at });
      if (!this.paused) this.start(shown.id);
    }
    this.changed();
    return true;
  }

  dismiss(id: number): void {
    const timer = this.timers.get(id);
    if (timer?.handle) clearTimeout(timer.handle);
    this.timers.delete(id);
    const next = this.list.filter((t) => t.id !== id);
    if (next.length === this.list.length) return;
    this.list = next;
    this.changed();
  }

  pause(): void {
    if (this.paused) return;
    this.paused = true;
    const now = this.now();
    for (const timer of this.timers.values()) {
      if (timer.handle) clearTimeout(timer.handle);
      timer.handle = null;
      timer.left = Math.max(0, timer.left - (now - timer.started));
    }
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    for (const id of this.timers.keys()) this.start(id);
  }

  /** Stops every timer and forgets every toast. */
  clear(): void {
    for (const timer of this.timers.values()) if (timer.handle) clearTimeout(timer.handle);
    this.timers.clear();
    this.list = [];
    this.changed();
  }

  private start(id: number): void {
    const timer = this.timers.get(id);
    if (!timer) return;
    timer.started = this.now();
    timer.handle = setTimeout(() => this.dismiss(id), timer.left);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

export type ToastSide = "top" | "bottom";

/**
 * Where the stack goes: away from the control just pressed, so it stays in sight (the bottom, unless that control
 * sits in the lower half of the screen).
 */
export function toastSide(pressed: { top: number; bottom: number } | null, viewportHeight: number): ToastSide {
  if (!pressed || viewportHeight <= 0) return "bottom";
  return (pressed.top + pressed.bottom) / 2 > viewportHeight / 2 ? "top" : "bottom";
}
