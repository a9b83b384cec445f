import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SAME_TOAST_MS, TOAST_LIFE_MS, ToastStack, toastSide } from "./toast-stack";

const messages = (s: ToastStack) => s.snapshot().map((t) => t.message);

describe("ToastStack: each toast's life counts from its own appearance", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-28T12:00:00Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("lives at least 5 s", () => {
    expect(TOAST_LIFE_MS).toBeGreaterThanOrEqual(5_000);
    const s = new ToastStack();
    s.add({ type: "success", message: "Saved." });
    vi.advanceTimersByTime(5_000);
    expect(messages(s)).toEqual(["Saved."]);
    vi.advanceTimersByTime(TOAST_LIFE_MS - 5_000);
    expect(messages(s)).toEqual([]);
  });

  it("a second toast 4 s after the first stacks and shortens neither's life", () => {
    const s = new ToastStack();
    s.add({ type: "success", message: "First." });
    vi.advanceTimersByTime(4_000);
    s.add({ type: "info", message: "Second." });
    expect(messages(s)).toEqual(["First.", "Second."]);
    // The first still has its 5 s (and more); the second was not cut short by the first's timer.
    vi.advanceTimersByTime(1_000);
    expect(messages(s)).toEqual(["First.", "Second."]);
    vi.advanceTimersByTime(TOAST_LIFE_MS - 5_000 - 1);
    expect(messages(s)).toEqual(["First.", "Second."]);
    vi.advanceTimersByTime(1);
    expect(messages(s)).toEqual(["Second."]);
    // The second: 5 s from its own appearance (at 9 s) it is still there; at 4 s + its life it goes.
    vi.advanceTimersByTime(4_000 + 5_000 - TOAST_LIFE_MS);
    expect(messages(s)).toEqual(["Second."]);
    vi.advanceTimersByTime(TOAST_LIFE_MS - 5_000 - 1);
    expect(messages(s)).toEqual(["Second."]);
    vi.advanceTimersByTime(1);
    expect(messages(s)).toEqual([]);
  });

  it("an error stays until dismissed", () => {
    const s = new ToastStack();
    s.add({ type: "error", message: "No." });
    vi.advanceTimersByTime(60_000);
    expect(messages(s)).toEqual(["No."]);
    s.dismiss(s.snapshot()[0]!.id);
    expect(messages(s)).toEqual([]);
  });

  it("while paused no time runs out; resumed, the rest of each life runs", () => {
    const s = new ToastStack();
    s.add({ type: "success", message: "Saved." });
    vi.advanceTimersByTime(3_000);
    s.pause();
    vi.advanceTimersByTime(60_000);
    expect(messages(s)).toEqual(["Saved."]);
    s.resume();
    vi.advanceTimersByTime(TOAST_LIFE_MS - 3_000 - 1);
    expect(messages(s)).toEqual(["Saved."]);
    vi.advanceTimersByTime(1);
    expect(messages(s)).toEqual([]);
  });

  it("the same message read twice at once is one toast; later it is a new one", () => {
    const s = new ToastStack();
    expect(s.add({ type: "success", message: "Saved." })).toBe(true);
    vi.advanceTimersByTime(SAME_TOAST_MS - 1);
    expect(s.add({ type: "success", message: "Saved." })).toBe(false);
    vi.advanceTimersByTime(1);
    expect(s.add({ type: "success", message: "Saved." })).toBe(true);
    expect(messages(s)).toEqual(["Saved.", "Saved."]);
  });

  it("tells its listener of every change", () => {
    const s = new ToastStack();
    const heard = vi.fn();
    const off = s.subscribe(heard);
    s.add({ type: "success", message: "Saved." });
    vi.advanceTimersByTime(TOAST_LIFE_MS);
    expect(heard).toHaveBeenCalledTimes(2);
    off();
    s.add({ type: "success", message: "Again." });
    expect(heard).toHaveBeenCalledTimes(2);
  });
});

describe("toastSide: away from the control just pressed", () => {
  it.each([
    { pressed: null, side: "bottom" },
    { pressed: { top: 100, bottom: 140 }, side: "bottom" },
    { pressed: { top: 700, bottom: 744 }, side: "top" },
    { pressed: { top: 400, bottom: 420 }, side: "bottom" },
    { pressed: { top: 420, bottom: 460 }, side: "top" },
  ] as const)("$pressed → $side", ({ pressed, side }) => {
    expect(toastSide(pressed, 844)).toBe(side);
  });
});
