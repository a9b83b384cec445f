import { sql, type RawBuilder } from "kysely";
import { dbDialect } from "./dialect";
import type { DB } from "./index";

/**
 * A `where` term that lets a single-statement write commit without waiting for the write-ahead log to reach the
 * disk (PostgreSQL's `synchronous_commit = off`, for this statement's own transaction only; `true` on SQLite, whose
 * commits under WAL + `synchronous = NORMAL` never wait for the disk). The write survives a crash of the
 * application (kill -9) as any other; only a crash of the database server or its machine within about 200 ms
 * (`wal_writer_delay`) may lose it. Use it ONLY for writes that the protocol repeats when they are lost:
 * a command's acknowledgement (the command reads as sent again, is redelivered, and the phone, which carries out
 * each command id once, acknowledges it again) and its "sent" mark (it reads as queued and is sent again). Never
 * for a write that is the only record of something: a command issued, a parent's setting, a usage upload.
 *
 * Why: a flush is 0.5–1 ms here and up to 12 ms in its tail, and the phone's acknowledgement waited behind two of
 * them in a row — its own and the "sent" mark's, whose row lock it queued on (decision 007).
 */
export function commitWithoutFlushWait(db: DB): RawBuilder<boolean> {
  return dbDialect(db) === "postgres" ? sql<boolean>`set_config('synchronous_commit', 'off', true) is not null` : sql<boolean>`1 = 1`;
}
