import type { SerializeFrom } from "@remix-run/node";
import type { action, loader } from "~/routes/_app.kids-device";

/** What the kids-device route hands its sections: the loader's two states and the action's answers. */
export type Data = SerializeFrom<typeof loader>;
export type DashData = Extract<Data, { state: "dashboard" }>;
export type NoDevData = Extract<Data, { state: "no-devices" }>;
export type ActionData = SerializeFrom<typeof action> | undefined;
export type EnrollData = Extract<NonNullable<ActionData>, { intent: "enroll" }>;
