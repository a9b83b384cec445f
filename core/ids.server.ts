import { randomBytes } from "node:crypto";

/** 96-bit random hex ids (the shape of the product's `_id`s), unguessable so ids in URLs leak nothing. */
export function newId(): string {
  return randomBytes(12).toString("hex");
}

export function nowIso(date: Date = new Date()): string {
  return date.toISOString();
}
