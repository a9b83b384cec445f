/** The friendly sentences procedures answer with (respones_msg). */
export const possessive = (name: string) => (name.endsWith("s") ? `${name}'` : `${name}'s`);

export function waitingFor(name: string, online: boolean): string {
  return online
    ? `Waiting for ${possessive(name)} phone to confirm.`
    : `${possessive(name)} phone is offline; it will update when it reconnects.`;
}
