import { createServer, type Server } from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listenWithCap, openFileLimit, type Admission } from "./admission";
import { waitFor } from "../server/harness.testing";

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            20000                20000                files
`;

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => resolve(s));
    s.once("error", reject);
  });
}

describe("a device process's listener stops accepting before it runs out of open files", () => {
  let http: Server;
  let a: Admission;
  const sockets: net.Socket[] = [];
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    await a?.close();
    http?.closeAllConnections();
    http?.close();
  });

  it("reads the open-file limit", () => {
    expect(openFileLimit(() => LIMITS)).toBe(20_000);
    expect(openFileLimit(() => LIMITS.replace(/20000 {16}20000/, "unlimited            unlimited"))).toBeNull();
    expect(
      openFileLimit(() => {
        throw new Error("no /proc here");
      }),
    ).toBeNull();
  });

  it("at max connections it refuses new ones; down to resumeAt it accepts again, and HTTP still works", async () => {
    http = createServer((_req, res) => res.end("ok"));
    a = await listenWithCap(http, { port: 0, host: "127.0.0.1", max: 3, resumeAt: 1 });
    for (let i = 0; i < 3; i++) sockets.push(await connect(a.port));
    await waitFor(async () => a.open() === 3);
    expect(a.accepting()).toBe(false);
    await expect(connect(a.port)).rejects.toMatchObject({ code: "ECONNREFUSED" });

    sockets.shift()!.destroy();
    await waitFor(async () => a.open() === 2);
    expect(a.accepting()).toBe(false);
    sockets.shift()!.destroy();
    await waitFor(async () => a.accepting());

    const res = await fetch(`http://127.0.0.1:${a.port}/`);
    expect(await res.text()).toBe("ok");
  });

  it("without a limit it never stops accepting", async () => {
    http = createServer((_req, res) => res.end("ok"));
    a = await listenWithCap(http, { port: 0, host: "127.0.0.1", max: null });
    for (let i = 0; i < 5; i++) sockets.push(await connect(a.port));
    await waitFor(async () => a.open() === 5);
    expect(a.accepting()).toBe(true);
  });
});
