import type { DeviceDirectory } from "../../devices/directory.ts";
import type { CommandDesk } from "../types.ts";
import type { Ingestor } from "../ingest/ingest.ts";
import {
  decodeOsmAndRequest,
  encodeCommandReply,
  MAX_BODY_LENGTH,
} from "../protocols/osmand/index.ts";
import { log as logger, type LogLevel, RateLimitedLog } from "../../../lib/log.ts";
import { linkMetrics, type ProtocolCounters } from "../metrics.ts";

/**
 * OsmAnd / Traccar Client over HTTP: one request carries positions, the answer (sent only
 * after they are stored) may carry the phone's pending command.
 */
export function createOsmAndHandler(deps: {
  directory: DeviceDirectory;
  ingestor: Ingestor;
  commands: Pick<CommandDesk, "takeHttpCommand">;
  log?: (m: string, level?: LogLevel) => void;
  /** OsmAnd's series (a request is a frame). */
  counters?: ProtocolCounters;
}) {
  const log = deps.log ?? ((m: string, level: LogLevel = "info") => gatewayLog[level](m));
  const counters = deps.counters ?? linkMetrics().protocols.osmand;
  // Refused requests: at most one line per device (or address) and kind a minute.
  const faults = new RateLimitedLog({
    ...gatewayLog,
    warn: (m: string) => log(m, "warn"),
  }, "warn");
  const refuse = (kind: "oversized" | "malformed", from: string, why: string, status: number) => {
    counters.refused[kind].inc();
    faults.log(`osmand|${from}|${kind}`, `[osmand] ${from}: ${why}`);
    return new Response(why, { status });
  };
  return async (req: Request, info?: Deno.ServeHandlerInfo): Promise<Response> => {
    counters.frames.inc();
    const from = remoteOf(info);
    const declared = Number(req.headers.get("content-length") ?? 0);
    if (declared > MAX_BODY_LENGTH) return refuse("oversized", from, "payload too large", 413);
    let body = "";
    if (req.method === "POST" && req.body) {
      body = await readLimited(req.body, MAX_BODY_LENGTH);
      if (body === "\0overflow") return refuse("oversized", from, "payload too large", 413);
    }
    const headers = Object.fromEntries(req.headers);
    const decoded = decodeOsmAndRequest({ method: req.method, url: req.url, headers, body });
    if ("error" in decoded) return refuse("malformed", from, decoded.error, 400);
    const device = await deps.directory.resolve(decoded.deviceId);
    if (!device || !device.enabled) {
      counters.refused.unknown_device.inc();
      faults.log(
        `osmand|${decoded.deviceId}|unknown_device`,
        `[osmand] ${from}: device ${decoded.deviceId} not registered in the routing table`,
      );
      return new Response("device not registered", { status: 404 });
    }
    if (decoded.positions.length) {
      try {
        await deps.ingestor.submit(device, [{ type: "positions", positions: decoded.positions }]);
      } catch {
        return new Response("store failed", { status: 503 });
      }
    } else {
      await deps.ingestor.submit(device, [{ type: "status", time: new Date(), attributes: {} }]);
    }
    const command = await deps.commands.takeHttpCommand(device.imei);
    return new Response(command ? encodeCommandReply({ content: command, ref: 0 }) : "", {
      status: 200,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  };
}

const gatewayLog = logger.area("gateway");

function remoteOf(info: Deno.ServeHandlerInfo | undefined): string {
  const a = info?.remoteAddr as Deno.NetAddr | undefined;
  return a?.hostname !== undefined ? `${a.hostname}:${a.port}` : "unknown";
}

async function readLimited(stream: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = "", size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > limit) return "\0overflow";
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}
