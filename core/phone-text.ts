/**
 * Text a phone sends (notifications, visited addresses, device logs, requests' remarks, reviews, hardware names) is
 * shown to parents. Bidirectional controls can make it read as something else — U+202E turns
 * "moc.elgoog//:sptth" into what looks like a trusted address — and NUL and the other control characters are
 * invisible or cut text short. They are taken out where the text enters (device-service/socket/telemetry.ts,
 * enrollment's hardware), and again where stored rows are shown (rows stored before).
 *
 * Removed: the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the marks U+200E, U+200F and
 * U+061C, and every C0 control but tab and newline, DEL and the C1 controls (U+0000–U+0008, U+000B–U+001F,
 * U+007F–U+009F).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const ANY_UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** The text without bidi controls and control characters (tab and newline kept). */
export function cleanPhoneText(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE, "") : text;
}

/** The same for a nullable column. */
export function cleanPhoneTextOrNull(text: string | null | undefined): string | null {
  return text == null ? null : cleanPhoneText(text);
}

/** Every string in a JSON-like value (object keys too) cleaned; anything else unchanged. */
export function cleanPhoneValue<T>(value: T): T {
  if (typeof value === "string") return cleanPhoneText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => cleanPhoneValue(v)) as T;
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [cleanPhoneText(k), cleanPhoneValue(v)])) as T;
  return value;
}
