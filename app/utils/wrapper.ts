/**
 * Hand-off of the session token to a native wrapper, when the page runs inside one:
 *  - Android WebView: a JavaScript interface registered as `Android` with `saveToken(token)`;
 *  - iOS WKWebView: a script message handler named `saveToken` (receives the token string);
 *  - React Native WebView: `window.ReactNativeWebView.postMessage('{"type":"token","token":"…"}')`.
 * The wrapper then sends `Authorization: Bearer <token>` on its requests; every page accepts it.
 * A null token tells the wrapper to forget its token (sign-out).
 */
export const WRAPPER_HANDOFF_JS = `function kpHandoff(t){
  try { if (window.Android && typeof window.Android.saveToken === "function") window.Android.saveToken(t === null ? "" : t); } catch (e) {}
  try { var h = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.saveToken; if (h) h.postMessage(t === null ? "" : t); } catch (e) {}
  try { if (window.ReactNativeWebView) window.ReactNativeWebView.postMessage(JSON.stringify({ type: "token", token: t })); } catch (e) {}
}`;

/** JSON for embedding inside a <script>: `<`, `>` and `&` are escaped so no string can close the tag. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/**
 * A tiny page shown for an instant after sign-in: with JavaScript it hands the token to the wrapper (if any)
 * and replaces itself with `to`; without JavaScript a <noscript> refresh (and a link) goes on to `to`.
 */
export function handoffPage({ token, to, nonce }: { token: string | null; to: string; nonce: string }): string {
  const href = escapeHtml(to);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Signing in… · Kids Portal</title>
<script nonce="${escapeHtml(nonce)}">${WRAPPER_HANDOFF_JS}
kpHandoff(${scriptJson(token)});
window.location.replace(${scriptJson(to)});</script>
<noscript><meta http-equiv="refresh" content="0;url=${href}"></noscript>
</head><body><p>Signing you in… <a href="${href}">Continue</a></p></body></html>`;
}
