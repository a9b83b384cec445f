import { appRouter } from "./routers/_app";
import { createCallerFactory } from "./trpc";

/** The in-process caller of the device service; the remote client (remote.ts) has the same shape. */
export const createDeviceCaller = createCallerFactory(appRouter);
export type DeviceCaller = ReturnType<typeof createDeviceCaller>;
