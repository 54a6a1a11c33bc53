/**
 * Matching V4 confirmations to sent commands.
 *
 * H02 has no serial number, but a command carries the server's `hhmmss` and the device
 * echoes it in its V4 confirmation. The encoder remembers which command ref it sent at
 * which `hhmmss` in the session, and the decoder looks the echo up. Two commands sent in
 * the same second share a stamp; the later one wins (the earlier reply stays unmatched).
 */

import type { ProtocolSession } from "../types.ts";

const EXTRA_KEY = "h02CommandRefs";
/** Bounded so a gateway that never sees confirmations cannot grow the session. */
const MAX_PENDING = 32;

type PendingRef = [hhmmss: string, ref: number];

/** A plain array (not a Map) keeps the session JSON-serialisable. */
function pending(session: ProtocolSession): PendingRef[] {
  const existing = session.extra[EXTRA_KEY];
  if (Array.isArray(existing)) return existing as PendingRef[];
  const created: PendingRef[] = [];
  session.extra[EXTRA_KEY] = created;
  return created;
}

export function rememberCommand(session: ProtocolSession, hhmmss: string, ref: number): void {
  const refs = pending(session).filter(([stamp]) => stamp !== hhmmss);
  refs.push([hhmmss, ref]);
  session.extra[EXTRA_KEY] = refs.slice(-MAX_PENDING);
}

export function takeCommandRef(session: ProtocolSession, hhmmss: string): number | undefined {
  const refs = pending(session);
  const index = refs.findIndex(([stamp]) => stamp === hhmmss);
  if (index < 0) return undefined;
  const [, ref] = refs[index];
  refs.splice(index, 1);
  return ref;
}
