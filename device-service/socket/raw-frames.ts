/**
 * Raw WebSocket frames and handshakes over a plain TCP socket, for tests and benches that have to send what a
 * well-behaved client library never would: unmasked frames, reserved opcodes, RSV bits, lying lengths.
 */
import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";

export interface RawFrame {
  fin?: boolean;
  /** RSV1..RSV3 as a 3-bit number (4 = RSV1). */
  rsv?: number;
  opcode: number;
  /** Client frames must be masked; false sends an unmasked (invalid) client frame. */
  mask?: boolean;
  payload?: Buffer;
  /** Announce this payload length instead of the real one (the body is not sent in full). */
  claimLength?: number;
}

export function encodeFrame(f: RawFrame): Buffer {
  const payload = f.payload ?? Buffer.alloc(0);
  const len = f.claimLength ?? payload.length;
  const mask = f.mask ?? true;
  const head: number[] = [((f.fin ?? true) ? 0x80 : 0) | (((f.rsv ?? 0) & 7) << 4) | (f.opcode & 0x0f)];
  let ext = Buffer.alloc(0);
  if (len < 126) head.push((mask ? 0x80 : 0) | len);
  else if (len < 65_536) {
    head.push((mask ? 0x80 : 0) | 126);
    ext = Buffer.alloc(2);
    ext.writeUInt16BE(len);
  } else {
    head.push((mask ? 0x80 : 0) | 127);
    ext = Buffer.alloc(8);
    ext.writeBigUInt64BE(BigInt(len));
  }
  if (!mask) return Buffer.concat([Buffer.from(head), ext, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ key[i % 4]));
  return Buffer.concat([Buffer.from(head), ext, key, body]);
}

export function handshake(path: string, credential: string | null): string {
  return [
    `GET ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Upgrade: websocket",
    "Connection: Upgrade",
    `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`,
    "Sec-WebSocket-Version: 13",
    ...(credential === null ? [] : [`Authorization: Bearer ${credential}`]),
    "",
    "",
  ].join("\r\n");
}

export interface RawResult {
  /** The HTTP status of the handshake answer, or null when none came. */
  status: number | null;
  /** Close codes of the close frames the server sent after a 101. */
  closeCodes: number[];
}

/** Server frames after the handshake answer: only close frames are looked at (unmasked, as servers send). */
function closeCodesIn(buf: Buffer): number[] {
  const codes: number[] = [];
  let i = 0;
  while (i + 2 <= buf.length) {
    const opcode = buf[i] & 0x0f;
    let len = buf[i + 1] & 0x7f;
    let off = i + 2;
    if (len === 126) {
      if (off + 2 > buf.length) break;
      len = buf.readUInt16BE(off);
      off += 2;
    } else if (len === 127) {
      if (off + 8 > buf.length) break;
      len = Number(buf.readBigUInt64BE(off));
      off += 8;
    }
    if (off + len > buf.length) break;
    if (opcode === 8 && len >= 2) codes.push(buf.readUInt16BE(off));
    i = off + len;
  }
  return codes;
}

/**
 * Opens a TCP connection, sends the upgrade request and the frames, and resolves when the connection is
 * gone. `pipeline`: the frames follow the request at once, before any answer (what an attacker does);
 * otherwise they are sent after a 101, and the client ends its side once the server sent a close frame or
 * after the last frame when `endAfterFrames` is set.
 */
export function rawExchange(
  port: number,
  o: { path?: string; credential: string | null; frames: Buffer[]; pipeline?: boolean; endAfterFrames?: boolean },
): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let data = Buffer.alloc(0);
    let status: number | null = null;
    let headerEnd = -1;
    let sentFrames = false;
    socket.on("error", () => {
      /* resets and broken pipes are expected: the server refuses or drops these connections */
    });
    const sendFrames = () => {
      if (sentFrames) return;
      sentFrames = true;
      for (const f of o.frames) if (!socket.destroyed) socket.write(f);
      if (o.endAfterFrames && !socket.destroyed) socket.end();
    };
    socket.on("connect", () => {
      socket.write(handshake(o.path ?? "/device-socket", o.credential));
      if (o.pipeline) sendFrames();
    });
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (headerEnd < 0) {
        headerEnd = data.indexOf("\r\n\r\n");
        if (headerEnd < 0) return;
        status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data.subarray(0, headerEnd).toString("latin1"))?.[1] ?? NaN);
        if (status === 101) sendFrames();
        else socket.end();
      }
      if (status === 101 && closeCodesIn(data.subarray(headerEnd + 4)).length && !socket.writableEnded) socket.end();
    });
    socket.on("close", () => resolve({ status, closeCodes: headerEnd >= 0 ? closeCodesIn(data.subarray(headerEnd + 4)) : [] }));
  });
}
