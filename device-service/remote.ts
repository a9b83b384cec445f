import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { TRPCError } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import type { ParentIdentity } from "./context";
import { appRouter, type AppRouter } from "./routers/_app";
import type { DeviceCaller } from "./caller";

/** Headers a web tier uses to call a separately deployed device service on a parent's behalf. */
export const SERVICE_KEY_HEADER = "x-device-service-key";
export const SERVICE_PARENT_HEADER = "x-device-service-parent";
/**
 * The parent's e-mail (URI-encoded) and role, as the web tier read them with the session in the same request. Beside
 * the key they save the device service a lookup per call; without them (an older web tier) it looks the id up.
 */
export const SERVICE_PARENT_EMAIL_HEADER = "x-device-service-parent-email";
export const SERVICE_PARENT_ROLE_HEADER = "x-device-service-parent-role";

type Caller = DeviceCaller;

const procedureType = (path: string): "query" | "mutation" | undefined => {
  const procedures = appRouter._def.procedures as unknown as Record<
    string,
    { _def: { type: "query" | "mutation" | "subscription" } } | undefined
  >;
  const type = procedures[path]?._def.type;
  return type === "query" || type === "mutation" ? type : undefined;
};

/**
 * The device service over HTTP (`DEVICE_SERVICE_URL`), shaped exactly like the in-process caller, so routes
 * do not know which one they hold: `device(parent).kids.setSleepMode(input)`. The parent (id, e-mail, role, as the
 * web tier's session check read them) travels in headers that the device service trusts only beside the shared
 * `DEVICE_SERVICE_KEY`; authorisation still happens there, in the procedures. Remote errors come back as TRPCError
 * with the same code and message.
 */
export function createRemoteDevice(url: string, key: string): (parent: ParentIdentity | null) => Caller {
  if (!key) throw new Error("DEVICE_SERVICE_KEY is required with DEVICE_SERVICE_URL.");
  return (parent) => {
    const client = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url,
          headers: () => ({
            [SERVICE_KEY_HEADER]: key,
            [SERVICE_PARENT_HEADER]: parent?.id ?? "",
            ...(parent
              ? { [SERVICE_PARENT_EMAIL_HEADER]: encodeURIComponent(parent.email), [SERVICE_PARENT_ROLE_HEADER]: parent.role }
              : {}),
          }),
        }),
      ],
    });
    const at = (path: string[]): unknown =>
      new Proxy(() => undefined, {
        get: (_t, prop) => (typeof prop === "string" ? at([...path, prop]) : undefined),
        apply: async (_t, _this, args: unknown[]) => {
          const name = path.join(".");
          const type = procedureType(name);
          if (!type) throw new TRPCError({ code: "NOT_FOUND", message: `No procedure ${name}.` });
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          let node: any = client;
          for (const p of path) node = node[p];
          try {
            return await (type === "query" ? node.query(args[0]) : node.mutate(args[0]));
          } catch (err) {
            if (err instanceof TRPCClientError) {
              const code = (err.data as { code?: TRPC_ERROR_CODE_KEY } | undefined)?.code ?? "INTERNAL_SERVER_ERROR";
              throw new TRPCError({ code, message: err.message, cause: err });
            }
            throw err;
          }
        },
      });
    return at([]) as Caller;
  };
}
