import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { minutesStep, packageName as pkg } from "../../core/values";
import { KIDS_APP_PACKAGE } from "../../core/store";
import { nowIso } from "../../core/ids.server";
import { issueCommand, recentCommands } from "../commands/outbox";
import { FCM_ACTION_NAMES, FCM_ACTIONS, PACKAGE_ACTIONS } from "../commands/types";
import { requestInstall } from "../installs";
import { possessive } from "../messages";
import { applyPolicy } from "../policy/store";
import { commandProcedure, deviceProcedure, router } from "../trpc";

/**
 * Whose command, for which phone, and whether it was online: the command procedure's first read, made before the
 * command is stored (so the push decision needs no second read, commands/outbox.ts).
 */
function fromProcedure(ctx: { device: { id: string }; parent: { id: string }; deviceOnline: boolean }) {
  return { deviceId: ctx.device.id, issuedBy: ctx.parent.id, online: ctx.deviceOnline };
}

function sentMessage(action: string, kidName: string, online: boolean): string {
  const phone = `${possessive(kidName)} phone`;
  return online ? `${action} ${phone}.` : `${action} ${phone}. It is offline, so it will happen when it reconnects (within 10 minutes).`;
}

const FCM_MESSAGES: Record<string, string> = {
  "Ring a Phone": "Ringing",
  "Stop Sound": "Stopping the sound on",
  send_location: "Asking for the location of",
  uninstall_app: "Uninstall command sent to",
  enable_app: "Enable app command sent to",
  disable_app: "Disable app command sent to",
  start_kid_app: "Start kids app command sent to",
  stop_knox: "Stop Knox command sent to",
  enable_vpn: "Enable VPN command sent to",
  disable_vpn: "Disable VPN command sent to",
  enable_dns: "Enable DNS command sent to",
  disable_dns: "Disable DNS command sent to",
};

export const deviceRouter = router({
  issueCommand: commandProcedure.input(z.object({ type: z.enum(["LOCK", "REBOOT"]) })).mutation(async ({ ctx, input }) => {
    // ctx.deviceOnline was read before the command is stored (the procedure's first read): once it is, the answer
    // cannot fail (nothing half-done, commands/outbox.ts).
    const cmd = await issueCommand(ctx, { ...fromProcedure(ctx), type: input.type });
    return {
      respones_msg: sentMessage(input.type === "LOCK" ? "Lock command sent to" : "Reboot command sent to", ctx.kid.name, ctx.deviceOnline),
      commandId: cmd.id,
    };
  }),

  sendFcmCommand: commandProcedure
    .input(
      z.object({
        action: z.enum(FCM_ACTION_NAMES),
        title: z.string().max(200).optional(),
        message: z.string().max(1000).optional(),
        packageName: z.union([pkg, z.literal("")]).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const packageName = input.packageName || undefined;
      if (PACKAGE_ACTIONS.includes(input.action)) {
        if (!packageName) throw new TRPCError({ code: "BAD_REQUEST", message: "Please enter the package name of the app." });
        if (input.action !== "enable_app" && packageName === KIDS_APP_PACKAGE)
          throw new TRPCError({ code: "FORBIDDEN", message: "You don't have permission to uninstall this app" });
      }
      const cmd = await issueCommand(ctx, {
        ...fromProcedure(ctx),
        type: FCM_ACTIONS[input.action],
        payload: { action: input.action, title: input.title ?? null, message: input.message ?? null, packageName: packageName ?? null },
      });
      return { respones_msg: sentMessage(FCM_MESSAGES[input.action], ctx.kid.name, ctx.deviceOnline), commandId: cmd.id };
    }),

  sync: commandProcedure.mutation(async ({ ctx }) => {
    const cmd = await issueCommand(ctx, { ...fromProcedure(ctx), type: "SYNC" });
    return { respones_msg: sentMessage("Syncing", ctx.kid.name, ctx.deviceOnline), commandId: cmd.id };
  }),

  fetchLogs: commandProcedure.mutation(async ({ ctx }) => {
    const cmd = await issueCommand(ctx, { ...fromProcedure(ctx), type: "FETCH_LOGS" });
    return { respones_msg: sentMessage("Asking for the logs of", ctx.kid.name, ctx.deviceOnline), commandId: cmd.id };
  }),

  /** Map display flag and location tracking settings (tracking off stores interval 0). */
  updateDevice: deviceProcedure
    .input(
      z.object({
        enableLocationMapDisplay: z.boolean().optional(),
        enableLocationTracking: z.boolean().optional(),
        locationTrackingInterval: minutesStep.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const ts = nowIso();
      const said: string[] = [];
      if (input.enableLocationMapDisplay !== undefined) {
        await ctx.db
          .updateTable("devices")
          .set({ enable_location_map_display: input.enableLocationMapDisplay ? 1 : 0, settings_updated_by: ctx.parent.id, updated_at: ts })
          .where("id", "=", ctx.device.id)
          .execute();
        said.push(input.enableLocationMapDisplay ? "The map is shown on the dashboard." : "The map is hidden from the dashboard.");
      }
      if (input.enableLocationTracking !== undefined || input.locationTrackingInterval !== undefined) {
        const current = await ctx.db.selectFrom("location_settings").selectAll().where("device_id", "=", ctx.device.id).executeTakeFirst();
        const tracking = input.enableLocationTracking ?? current?.enable_location_tracking === 1;
        let interval = input.locationTrackingInterval ?? current?.location_tracking_interval ?? 15;
        if (!tracking) interval = 0;
        else if (interval === 0) interval = 15;
        await ctx.db
          .insertInto("location_settings")
          .values({
            device_id: ctx.device.id,
            enable_location_tracking: tracking ? 1 : 0,
            location_tracking_interval: interval,
            updated_at: ts,
            updated_by: ctx.parent.id,
          })
          .onConflict((oc) =>
            oc.column("device_id").doUpdateSet({
              enable_location_tracking: tracking ? 1 : 0,
              location_tracking_interval: interval,
              updated_at: ts,
              updated_by: ctx.parent.id,
            }),
          )
          .execute();
        await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
        said.push(tracking ? `Location tracking is on, every ${interval} minutes.` : "Location tracking is off.");
      }
      if (!said.length) throw new TRPCError({ code: "BAD_REQUEST", message: "Nothing to update." });
      return { respones_msg: said.join(" ") };
    }),

  /** Re-sends the current policy (the spec's "apply policy"); a no-op when nothing changed and it was acknowledged. */
  applyPolicy: commandProcedure.mutation(async ({ ctx }) => {
    const applied = await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
    return {
      respones_msg: `Settings sent to ${possessive(ctx.kid.name)} phone.`,
      policyVersion: applied.version,
      commandId: applied.commandId,
    };
  }),

  installApp: commandProcedure.input(z.object({ packageName: pkg })).mutation(async ({ ctx, input }) => {
    const cmd = await requestInstall(ctx, ctx.device.id, input.packageName, ctx.parent.id);
    return { respones_msg: sentMessage("Install command sent to", ctx.kid.name, ctx.deviceOnline), commandId: cmd.id };
  }),

  commands: deviceProcedure.input(z.object({ limit: z.number().int().min(1).max(100).optional() })).query(async ({ ctx, input }) => {
    return recentCommands(ctx.db, ctx.device.id, input.limit ?? 20);
  }),
});
