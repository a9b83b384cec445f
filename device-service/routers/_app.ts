import { z } from "zod";
import { publicProcedure, router } from "../trpc";

export const appRouter = router({
  health: publicProcedure.input(z.void()).query(() => ({ ok: true as const })),
});

export type AppRouter = typeof appRouter;
