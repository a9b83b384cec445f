import type { Express, RequestHandler } from "express";
import type { JobRunner } from "../core/job-queues";
import type { DB } from "../db/index";
import type { SessionPolicy } from "../db/queries/sessions";
import { requireOperator } from "../device-service/http";
import type { BullRunner } from "./bullmq";

/**
 * /admin/queues for operators: Bull Board over the BullMQ queues, or a JSON summary of the in-process runner's
 * queues. Mounted by each process that serves HTTP (server/web.ts, server/device.ts).
 */
export function mountQueueBoard(app: Express, o: { db: DB; jobs: JobRunner; sessionPolicy: SessionPolicy }) {
  const guard = requireOperator(o.db, o.sessionPolicy);
  const jobs = o.jobs;
  if (jobs.kind === "bullmq") {
    // Bull Board is loaded on the first operator's visit, not when a device process starts (start-up is part of the
    // fleet's way back after kill -9 of all, issue 22).
    let board: Promise<RequestHandler> | null = null;
    const loadBoard = async (): Promise<RequestHandler> => {
      const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }] = await Promise.all([
        import("@bull-board/api"),
        import("@bull-board/api/bullMQAdapter"),
        import("@bull-board/express"),
      ]);
      const serverAdapter = new ExpressAdapter();
      serverAdapter.setBasePath("/admin/queues");
      createBullBoard({ queues: (jobs as BullRunner).queues.map((q) => new BullMQAdapter(q)), serverAdapter });
      return serverAdapter.getRouter() as RequestHandler;
    };
    // Bull Board ships its own inline scripts: it gets a CSP of its own instead of the app's nonce policy.
    app.use(
      "/admin/queues",
      guard,
      (_req, res, next) => {
        res.setHeader(
          "Content-Security-Policy",
          "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
        );
        next();
      },
      (req, res, next) => {
        board ??= loadBoard();
        board.then((router) => router(req, res, next), next);
      },
    );
    return;
  }
  // In-process runner: nothing in Redis to browse, so a plain summary of the in-memory queues.
  app.get(["/admin/queues", "/admin/queues/api/queues"], guard, async (_req, res) => {
    res.json({ runner: "in-process", queues: await jobs.counts() });
  });
}
