/**
 * A service the process needs at start-up (PostgreSQL, NATS) could not be reached. main.ts
 * reports it as one line and exits with code 2, like a port in use: the operator's fix is in
 * the address or the service, not in a stack trace.
 */
export class UnreachableError extends Error {
  constructor(service: string, address: string, cause: unknown) {
    super(`cannot reach ${service} at ${address}: ${reason(cause)}`, { cause });
    this.name = "UnreachableError";
  }
}

/** An address without its password, for logs (`postgres://user:secret@h/db` → `user@h/db`). */
export function withoutPassword(address: string): string {
  return address.replace(/(\/\/[^:/@]*):[^@/]*@/g, "$1@");
}

function reason(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  const message = cause.message || cause.name;
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}

/** Socket errors that mean "not there" (refused, no such host, no route, timed out). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/**
 * Whether a PostgreSQL client's error means the database cannot be used at all: the network,
 * SQLSTATE classes 08 (connection) and 28 (authentication), 3D000 (no such database), 57P03
 * (starting up), or pg's own connection timeout. Other errors (a failed migration) keep their
 * stack: they are bugs, not addresses.
 */
export function isConnectionFailure(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code) || code.startsWith("08") || code.startsWith("28")) return true;
    if (code === "3D000" || code === "57P03") return true;
  }
  return /connection timeout|timeout expired|Connection terminated/i.test(e.message);
}
