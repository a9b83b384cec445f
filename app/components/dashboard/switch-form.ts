/**
 * The state a `<Switch name onToggle>` asks for when it submits its form without JavaScript: the switch posts
 * `<name>:on` or `<name>:off` (its value is its label). `<name>=on|off` is read too (older pages, API callers).
 */
export function readSwitch(form: FormData, name = "toggle"): "on" | "off" | null {
  if (form.has(`${name}:on`)) return "on";
  if (form.has(`${name}:off`)) return "off";
  const v = form.get(name);
  return v === "on" || v === "off" ? v : null;
}
