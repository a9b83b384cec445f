import { z } from "zod";
import { publicProcedure, router } from "../trpc";
import { browserRouter } from "./browser";
import { appsRouter } from "./apps";
import { categoriesRouter } from "./categories";
import { deviceRouter } from "./device";
import { enrollmentRouter } from "./enrollment";
import { kidsRouter } from "./kids";
import { logsRouter } from "./logs";
import { requestsRouter } from "./requests";
import { settingsRouter } from "./settings";
import { timeRouter } from "./time";
import { storeRouter } from "./store";

export const appRouter = router({
  health: publicProcedure.input(z.void()).query(() => ({ ok: true as const })),
  kids: kidsRouter,
  device: deviceRouter,
  settings: settingsRouter,
  enrollment: enrollmentRouter,
  browser: browserRouter,
  logs: logsRouter,
  apps: appsRouter,
  categories: categoriesRouter,
  requests: requestsRouter,
  time: timeRouter,
  store: storeRouter,
});

export type AppRouter = typeof appRouter;
