/** What every upstream transport is given: the query, how long to wait, and which reply is the answer to it. */
export interface ExchangeOptions {
  timeoutMs: number;
  /** Whether a received message is the answer to this query (id and question); others are ignored (RFC 5452). */
  accept(message: Buffer): boolean;
  /** Certificate authorities trusted for tls:// and https:// upstreams besides the system's (tests: the dev certificate). */
  ca?: string | Buffer;
}

/** An upstream that did not answer in time: the next one is tried. */
export class UpstreamTimeout extends Error {
  readonly code = "timeout";
  constructor() {
    super("The upstream resolver did not answer in time.");
  }
}
