import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { TRPCError } from "@trpc/server";
import { createExpressMiddleware } from "@trpc/server/adapters/express";
import express, { type Express, type Request, type RequestHandler } from "express";
import { z } from "zod";
import { findParentById } from "../db/queries/parents";
import { findLiveSession, type SessionPolicy } from "../db/queries/sessions";
import type { DB } from "../db/index";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "../db/unavailable";
import { sessionCookie } from "../core/session-cookie.server";
import type { ParentIdentity } from "./context";
import { EnrollmentError, exchangeEnrollmentToken, hardwareSchema } from "./enrollment";
import { kidsParentLogin, type KidsLoginOptions } from "./kids-login";
import { BATCH_LIMIT, publicMessage, TRPC_BODY_LIMIT_BYTES } from "./errors";
import { boundedJson, DEVICE_API_BODY_LIMIT, jsonErrors, refuseDeclaredOver } from "./http-errors";
import { appRouter } from "./routers/_app";
import type { DeviceRuntime } from "./runtime";
import { SERVICE_KEY_HEADER, SERVICE_PARENT_EMAIL_HEADER, SERVICE_PARENT_HEADER, SERVICE_PARENT_ROLE_HEADER } from "./remote";
import { DEVICE_SOCKET_PATH } from "./socket/gateway";

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export interface MountOptions {
  runtime: DeviceRuntime;
  sessionPolicy: SessionPolicy;
  kidsAppApiKey: string;
  /** The kids app's parent login: the web sign-in's limits, two-step codes and mail. */
  accounts: KidsLoginOptions;
  /** DEVICE_SERVICE_KEY: lets a separately deployed web tier call /trpc on a parent's behalf. Empty = off. */
  serviceKey?: string;
}

async function sessionToken(req: Request): Promise<string | null> {
  const auth = req.get("Authorization");
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim() || null;
  const value = await sessionCookie().parse(req.get("Cookie") ?? null);
  return typeof value === "string" && value ? value : null;
}

export async function parentFromRequest(db: DB, req: Request, policy: SessionPolicy): Promise<ParentIdentity | null> {
  const token = await sessionToken(req);
  if (!token) return null;
  const session = await findLiveSession(db, token, policy);
  if (!session) return null;
  const parent = await findParentById(db, session.parent_id);
  return parent ? { id: parent.id, email: parent.email, role: parent.role } : null;
}

const ServiceParent = z.object({ id: z.string().min(1).max(64), email: z.string().min(1).max(320), role: z.enum(["parent", "operator"]) });

/**
 * A web tier's call: the shared key, then the parent it acts for. Whoever holds the key may name any parent, so the
 * parent's e-mail and role as the web tier read them with the session (this request) are worth as much as a lookup
 * by id, and save a database round trip on every call; an older web tier sends the id alone, which is looked up.
 * Malformed headers name nobody.
 */
export async function parentFromServiceHeaders(
  db: DB,
  req: { get(name: string): string | undefined },
  serviceKey: string | undefined,
): Promise<ParentIdentity | null> {
  const key = req.get(SERVICE_KEY_HEADER);
  if (!serviceKey || !key) return null;
  if (!sameSecret(key, serviceKey)) return null;
  const id = req.get(SERVICE_PARENT_HEADER);
  if (!id) return null;
  const email = req.get(SERVICE_PARENT_EMAIL_HEADER);
  const role = req.get(SERVICE_PARENT_ROLE_HEADER);
  if (email !== undefined || role !== undefined) {
    let decoded: string | undefined;
    try {
      decoded = email === undefined ? undefined : decodeURIComponent(email);
    } catch {
      return null;
    }
    const told = ServiceParent.safeParse({ id, email: decoded, role });
    return told.success ? told.data : null;
  }
  const parent = await findParentById(db, id);
  return parent ? { id: parent.id, email: parent.email, role: parent.role } : null;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Operators only: no session → 401, a parent → 403. */
export function requireOperator(db: DB, policy: SessionPolicy): RequestHandler {
  return (req, res, next) => {
    parentFromRequest(db, req, policy).then(
      (who) => {
        if (!who) {
          if (req.accepts("html")) res.redirect(302, `/login?redirectTo=${encodeURIComponent(req.originalUrl)}`);
          else res.status(401).json({ respones_msg: "Please sign in again.", is_logout: 1 });
          return;
        }
        if (who.role !== "operator") {
          res.status(403).type("text/plain").send("Operators only.");
          return;
        }
        next();
      },
      (err: unknown) => next(err),
    );
  };
}

/**
 * Everything the device service serves over HTTP, mounted before Remix:
 * /trpc (the router for a separately deployed web tier), /device-api (enrollment and the kids app's parent
 * login), /admin/queues (Bull Board, operators only) and the /device-socket upgrade.
 */
export function mountDeviceService(app: Express, upgrades: Map<string, UpgradeHandler>, o: MountOptions): void {
  const { deps } = o.runtime;
  const db = deps.db;

  app.use(
    "/trpc",
    // Bodies at most 1 MB (refused before reading when declared), batches at most 10 calls.
    refuseDeclaredOver(TRPC_BODY_LIMIT_BYTES, publicMessage(new TRPCError({ code: "PAYLOAD_TOO_LARGE" }))),
    createExpressMiddleware({
      maxBodySize: TRPC_BODY_LIMIT_BYTES,
      maxBatchSize: BATCH_LIMIT,
      router: appRouter,
      createContext: async ({ req }) => {
        try {
          return {
            ...deps,
            parent: (await parentFromServiceHeaders(db, req, o.serviceKey)) ?? (await parentFromRequest(db, req, o.sessionPolicy)),
          };
        } catch (err) {
          if (isDatabaseUnavailable(err))
            throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE_MESSAGE, cause: err });
          throw err;
        }
      },
      onError: ({ error, path }) => {
        if (error.code === "INTERNAL_SERVER_ERROR") deps.log("error", "trpc error", { path, error: error.message });
      },
    }),
  );

  const api = express.Router();
  // Bodies at most 64 KB; a larger one is read off (bounded) and answered 413, so every client reads the answer.
  api.use(boundedJson(DEVICE_API_BODY_LIMIT));

  /** The phone exchanges its one-time token and hardware info for a device credential. */
  api.post("/enroll", async (req, res) => {
    const body = z
      .object({ token: z.string().min(1).max(200), hardware: hardwareSchema })
      .safeParse({ ...req.body, token: req.body?.token ?? req.query.token });
    if (!body.success) {
      res.status(400).json({ respones_msg: "The enrollment request is not valid." });
      return;
    }
    try {
      const r = await exchangeEnrollmentToken(db, body.data.token, body.data.hardware);
      deps.log("info", "device enrolled", { deviceId: r.deviceId, serialNumber: r.serialNumber });
      res.json({
        respones_msg: "Phone enrolled.",
        data: {
          deviceId: r.deviceId,
          profileId: r.profileId,
          serialNumber: r.serialNumber,
          credential: r.credential,
          socketPath: DEVICE_SOCKET_PATH,
        },
      });
    } catch (err) {
      if (err instanceof EnrollmentError) {
        if (err.reason)
          deps.log("warn", "device enrollment refused", { reason: err.reason, serialNumber: body.data.hardware.serialNumber });
        res.status(err.status).json({ respones_msg: err.message });
      } else if (isDatabaseUnavailable(err))
        throw err; // 503 from the outage handler (device-service/outage.ts)
      else {
        deps.log("error", "enrollment failed", { error: err instanceof Error ? err.message : String(err) });
        res.status(500).json({ respones_msg: "Enrollment failed. Please try again." });
      }
    }
  });

  /**
   * The kids app's parent login (spec 1 §6: a fixed API key header). Returns the parent's kids; with a
   * profileId it also returns a one-time enrollment token for that kid, so the app enrolls the phone next.
   */
  const parentLogin = kidsParentLogin(deps, o.accounts);
  api.post(
    "/kids/parent/login",
    (req, res, next) => {
      const key = req.get("x-api-key") ?? "";
      if (!key || !sameSecret(key, o.kidsAppApiKey)) {
        res.status(401).json({ respones_msg: "This app is not allowed to sign in." });
        return;
      }
      next();
    },
    parentLogin,
  );
  jsonErrors(api, deps.log);
  app.use("/device-api", api);

  upgrades.set(DEVICE_SOCKET_PATH, (req, socket, head) => o.runtime.gateway.handleUpgrade(req, socket, head));
}
