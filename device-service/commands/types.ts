/** Every command a phone can receive. One-shot commands expire; APPLY_POLICY is superseded by a newer version instead. */
export const COMMAND_TYPES = [
  "LOCK",
  "REBOOT",
  "RING",
  "STOP_SOUND",
  "SEND_LOCATION",
  "SYNC",
  "FETCH_LOGS",
  "APPLY_POLICY",
  "INSTALL_APP",
  "UNINSTALL_APP",
  "ENABLE_APP",
  "DISABLE_APP",
  "START_KID_APP",
  "STOP_KNOX",
  "ENABLE_VPN",
  "DISABLE_VPN",
  "ENABLE_DNS",
  "DISABLE_DNS",
  // The parent's answer to a kid's request (issue 14): the phone shows it to the kid and acknowledges.
  "APP_REQUEST_RESULT",
] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** The FCM-style actions of spec 1 §7 and spec 2 /device-logs, as the dashboard sends them. */
export const FCM_ACTIONS = {
  "Ring a Phone": "RING",
  "Stop Sound": "STOP_SOUND",
  send_location: "SEND_LOCATION",
  uninstall_app: "UNINSTALL_APP",
  enable_app: "ENABLE_APP",
  disable_app: "DISABLE_APP",
  start_kid_app: "START_KID_APP",
  stop_knox: "STOP_KNOX",
  enable_vpn: "ENABLE_VPN",
  disable_vpn: "DISABLE_VPN",
  enable_dns: "ENABLE_DNS",
  disable_dns: "DISABLE_DNS",
} as const satisfies Record<string, CommandType>;
export type FcmAction = keyof typeof FCM_ACTIONS;
export const FCM_ACTION_NAMES = Object.keys(FCM_ACTIONS) as [FcmAction, ...FcmAction[]];
/** Actions that name an app. */
export const PACKAGE_ACTIONS: FcmAction[] = ["uninstall_app", "enable_app", "disable_app"];

/** As Android Management API commands: unacknowledged one-shot commands expire after 10 minutes. */
export const ONE_SHOT_TTL_MS = 10 * 60_000;
