/**
 * How device sockets reach their links: Deno's own sockets, or libc's epoll through FFI
 * (Linux; ~3× less CPU per frame, docs/performance.md). Both give a link the same
 * `LinkSocket` and feed it through the same `LinkInput`, so one link implementation and its
 * tests cover both.
 */
import { epollSupported, socketAddress } from "../../../lib/net/libc.ts";
import type { LinkInput, LinkSocket } from "../link/device_link.ts";

/** `GATEWAY_IO`: which transport serves device sockets ("auto": epoll where it can). */
export type GatewayIo = "auto" | "epoll" | "deno";

/** A listening port of a transport. */
export interface SocketListener {
  port: number;
  /** Stops accepting (open connections stay). */
  close(): void;
}

/** Called for each accepted connection; returns where its reads go. */
export type AcceptSocket = (socket: LinkSocket) => LinkInput;

export interface SocketTransport {
  readonly name: "epoll" | "deno";
  /** Binds and listens; throws Deno.errors.AddrInUse when the port is taken. */
  listen(hostname: string, port: number, reusePort: boolean, accept: AcceptSocket): SocketListener;
  /** Bytes accepted for writing and not yet handed to the kernel (metrics). */
  queuedBytes(): number;
  /** Releases the transport once its listeners and connections are closed. */
  close(): Promise<void>;
}

/** Whether "auto" gets epoll here: Linux on x86-64 or arm64, FFI allowed, an IP literal host. */
export function epollUsable(hostname: string): boolean {
  if (!epollSupported() || socketAddress(hostname, 0) === null) return false;
  return Deno.permissions.querySync?.({ name: "ffi" }).state === "granted";
}
