/**
 * DNS over a stream (TCP, TLS: RFC 1035 §4.2.2, RFC 7766 §8): each message is preceded by its length as two bytes.
 * `MessageReader` cuts the received bytes into messages, whatever the chunks they arrive in.
 */
export function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(message.length + 2);
  out.writeUInt16BE(message.length, 0);
  message.copy(out, 2);
  return out;
}

export class MessageReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  /**
   * The whole messages the bytes complete. Throws a `FrameTooLarge` when a message announces more than `maxBytes`:
   * the connection is closed rather than read on (the bytes would only be thrown away).
   */
  push(chunk: Buffer, maxBytes = 65_535): Buffer[] {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    let buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    const out: Buffer[] = [];
    while (buf.length >= 2) {
      const length = buf.readUInt16BE(0);
      if (length > maxBytes) throw new FrameTooLarge(length);
      if (buf.length < 2 + length) break;
      out.push(buf.subarray(2, 2 + length));
      buf = buf.subarray(2 + length);
    }
    this.pending = buf.length ? [buf] : [];
    this.pendingBytes = buf.length;
    return out;
  }
}

export class FrameTooLarge extends Error {
  constructor(readonly length: number) {
    super(`A ${length}-byte DNS message is over the limit.`);
  }
}
