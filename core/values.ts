import { z, ZodError, type ZodIssue } from "zod";

/**
 * One schema per value, shared by the web forms (conform + zod), the device service's tRPC procedures and
 * the database layer, so a value the form accepts is never refused further down with a different rule.
 * Messages are written for people. This module imports nothing from app/, db/, device-service/ or jobs/.
 */

// ---------------------------------------------------------------- kids

export const KID_NAME_MAX = 50;
export const KID_NAME_REQUIRED = "Please enter the kid's name.";
export const KID_NAME_TOO_LONG = `The name must be ${KID_NAME_MAX} characters or fewer.`;

export const kidName = z
  .string({ required_error: KID_NAME_REQUIRED, invalid_type_error: KID_NAME_REQUIRED })
  .trim()
  .min(1, KID_NAME_REQUIRED)
  .max(KID_NAME_MAX, KID_NAME_TOO_LONG);

export const BIRTH_YEAR_MIN = 2000;
export const BIRTH_MONTH_MESSAGE = "Please choose the birth month.";
export const birthMonth = z
  .number({ required_error: BIRTH_MONTH_MESSAGE, invalid_type_error: BIRTH_MONTH_MESSAGE })
  .int(BIRTH_MONTH_MESSAGE)
  .min(1, BIRTH_MONTH_MESSAGE)
  .max(12, BIRTH_MONTH_MESSAGE);

export function birthYearMessage(currentYear: number): string {
  return `Birth year must be between ${BIRTH_YEAR_MIN} and ${currentYear}.`;
}

/** 2000 up to the current year (given, so tests and forms agree on "now"). */
export function birthYear(currentYear: number = new Date().getUTCFullYear()) {
  const message = birthYearMessage(currentYear);
  return z
    .number({ required_error: "Please enter the birth year.", invalid_type_error: "Please enter the birth year." })
    .int("Please enter the birth year.")
    .min(BIRTH_YEAR_MIN, message)
    .max(currentYear, message);
}

// ---------------------------------------------------------------- minutes

export const MINUTES_MAX = 1440;
export const MINUTES_STEP = 15;
export const MINUTES_MESSAGE = "Please enter whole minutes from 0 to 1,440.";
/** Spec 1 §4 and spec 2: the exact words. */
export const MULTIPLE_OF_15_MESSAGE = "Please enter time multiple of 15.";

/** Whole minutes in a day: 0..1440. `1.5`, `-1`, `1e300`, `NaN` and `Infinity` are refused. */
export const minutes = z
  .number({ required_error: MINUTES_MESSAGE, invalid_type_error: MINUTES_MESSAGE })
  .int(MINUTES_MESSAGE)
  .min(0, MINUTES_MESSAGE)
  .max(MINUTES_MAX, MINUTES_MESSAGE);

/** A daily limit or an interval: whole minutes, a multiple of 15. */
export const minutesStep = minutes.refine((n) => n % MINUTES_STEP === 0, MULTIPLE_OF_15_MESSAGE);

/**
 * Minutes as typed into a form field: digits only, so `15abc`, `1.5`, `-1`, `1.5e21` and `0x10` are refused
 * (parseFloat would read the first as 15). Empty text is `null` (the field was left blank).
 */
export function parseMinutesText(raw: unknown): { ok: true; minutes: number | null } | { ok: false; message: string } {
  if (typeof raw === "number") {
    const r = minutes.safeParse(raw);
    return r.success ? { ok: true, minutes: r.data } : { ok: false, message: MINUTES_MESSAGE };
  }
  const text = typeof raw === "string" ? raw.trim() : "";
  if (text === "") return { ok: true, minutes: null };
  if (!/^\d{1,5}$/.test(text)) return { ok: false, message: MINUTES_MESSAGE };
  const r = minutes.safeParse(Number(text));
  return r.success ? { ok: true, minutes: r.data } : { ok: false, message: MINUTES_MESSAGE };
}

/** The same rule as a form field schema (conform passes blank fields as undefined). */
export const minutesText = z
  .string({ required_error: "Please enter time.", invalid_type_error: MINUTES_MESSAGE })
  .trim()
  .regex(/^\d{1,5}$/, MINUTES_MESSAGE)
  .transform(Number)
  .pipe(minutes);

// ---------------------------------------------------------------- phones and apps

export const SERIAL_NUMBER_MESSAGE = "Please enter a valid serial number.";
/** A phone's serial number as enrollment accepts it (3..64 letters, digits, dot, dash, underscore). */
export const serialNumber = z
  .string({ required_error: SERIAL_NUMBER_MESSAGE, invalid_type_error: SERIAL_NUMBER_MESSAGE })
  .trim()
  .min(3, SERIAL_NUMBER_MESSAGE)
  .max(64, SERIAL_NUMBER_MESSAGE)
  .regex(/^[A-Za-z0-9._-]+$/, SERIAL_NUMBER_MESSAGE);

export const PACKAGE_NAME_MESSAGE = "Please enter a valid package name.";
/** An Android package name (com.example.app). */
export const packageName = z
  .string({ required_error: PACKAGE_NAME_MESSAGE, invalid_type_error: PACKAGE_NAME_MESSAGE })
  .trim()
  .min(1, PACKAGE_NAME_MESSAGE)
  .max(255, PACKAGE_NAME_MESSAGE)
  .regex(/^[A-Za-z0-9._-]+$/, PACKAGE_NAME_MESSAGE);

/** A record id in a URL or form (kid profile, device, notification). */
export const recordId = z
  .string({ required_error: "Something is missing from the request.", invalid_type_error: "Something is missing from the request." })
  .trim()
  .min(1, "Something is missing from the request.")
  .max(64, "Something is missing from the request.");

// ---------------------------------------------------------------- messages

const LABELS: Record<string, string> = {
  kidName: "the kid's name",
  birthMonth: "the birth month",
  birthYear: "the birth year",
  minutes: "the minutes",
  serialNumber: "the serial number",
  packageName: "the package name",
  profileId: "the kid",
};

function label(path: (string | number)[]): string {
  const key = [...path].reverse().find((p): p is string => typeof p === "string");
  if (!key) return "what you entered";
  return LABELS[key] ?? key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** True when the issue carries a message written by us rather than zod's default wording. */
function isOwnMessage(issue: ZodIssue): boolean {
  if (issue.code === "custom") return Boolean(issue.message) && issue.message !== "Invalid input";
  const fallback = z.defaultErrorMap(issue, { defaultError: "", data: undefined }).message;
  return issue.message !== fallback;
}

/**
 * A validation failure in plain words, never zod's JSON: the first issue's own message when it has one
 * (all schemas above do), else "Please check <the field>.".
 */
export function validationMessage(error: ZodError | ZodIssue[]): string {
  const issues = error instanceof ZodError ? error.issues : error;
  const first = issues[0];
  if (!first) return "Please check what you entered.";
  if (isOwnMessage(first)) return first.message;
  return `Please check ${label(first.path)}.`;
}
