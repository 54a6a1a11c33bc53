/**
 * The address terminals send media to (0x9101/0x9201 name the JT/T 1078 listener, 0x9208 the
 * attachment listener): MEDIA_PUBLIC_HOST when set (NAT); else HOSTNAME when it is one
 * address; else this machine's address on the device's side — loopback for a device on
 * loopback, otherwise the first non-loopback IPv4 address of this machine.
 */
import type { LiveConnection } from "../gateway/types.ts";

export interface MediaAddressConfig {
  MEDIA_PUBLIC_HOST?: string;
  HOSTNAME: string;
}

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]"]);

export function mediaHost(
  config: MediaAddressConfig,
  conn: Pick<LiveConnection, "remote">,
): string {
  if (config.MEDIA_PUBLIC_HOST) return config.MEDIA_PUBLIC_HOST;
  if (!WILDCARDS.has(config.HOSTNAME)) return config.HOSTNAME;
  const remote = conn.remote.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  if (remote.startsWith("127.") || remote === "::1" || remote === "localhost") return "127.0.0.1";
  return ownAddress() ?? "127.0.0.1";
}

function ownAddress(): string | null {
  try {
    for (const i of Deno.networkInterfaces()) {
      if (i.family === "IPv4" && !i.address.startsWith("127.")) return i.address;
    }
  } catch {
    // no --allow-sys: the caller falls back to loopback
  }
  return null;
}
