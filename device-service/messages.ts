/** The friendly sentences procedures answer with (respones_msg). */
export const possessive = (name: string) => (name.endsWith("s") ? `${name}'` : `${name}'s`);

export function waitingFor(name: string, online: boolean): string {
  return online
    ? `Waiting for ${possessive(name)} phone to confirm.`
    : `${possessive(name)} phone is offline; it will update when it reconnects.`;
}

/** A category's switch and daily limit: minutes 0 is no limit. */
export interface CategoryState {
  enabled: boolean;
  minutes: number;
}

/**
 * What a save on /category changed, in words (issue 53): a disabled category's limit turned on or off says the
 * category stays disabled and when the limit will count; turning the category on or off says what that does.
 */
export function categorySaved(name: string, kidName: string, before: CategoryState, after: CategoryState): string {
  const phone = `${possessive(kidName)} phone`;
  const limit = (m: number) => (m > 0 ? `a daily limit of ${m} minutes` : "no daily limit");
  if (!after.enabled && !before.enabled) {
    if (after.minutes === before.minutes) return `${name} stays disabled on ${phone}; its apps stay blocked.`;
    return after.minutes > 0
      ? `${name} stays disabled on ${phone}, so its apps stay blocked; it will have ${limit(after.minutes)} once you enable it.`
      : `${name} stays disabled on ${phone}, so its apps stay blocked; it will have no daily limit once you enable it.`;
  }
  if (!after.enabled) return `${name} is disabled on ${phone}: its apps are blocked.`;
  if (!before.enabled) return `${name} is enabled on ${phone} with ${limit(after.minutes)}.`;
  return after.minutes > 0 ? `${name} has ${limit(after.minutes)} on ${phone}.` : `${name} has no daily limit on ${phone}.`;
}
