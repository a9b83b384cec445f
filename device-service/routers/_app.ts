import { z } from "zod";
import { publicProcedure, router } from "../trpc";
import { deviceRouter } from "./device";
import { enrollmentRouter } from "./enrollment";
import { kidsRouter } from "./kids";
import { settingsRouter } from "./settings";

export const appRouter = router({
  health: publicProcedure.input(z.void()).query(() => ({ ok: true as const })),
  kids: kidsRouter,
  device: deviceRouter,
  settings: settingsRouter,
  enrollment: enrollmentRouter,
});

export type AppRouter = typeof appRouter;
