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
  return address.replace(/(\/\/[^:/@]*):[^@/]*@/, "$1@");
}

function reason(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  const message = cause.message || cause.name;
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}
