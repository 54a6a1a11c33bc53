import type { DeviceDirectory } from "../../devices/directory.ts";
import type { CommandDesk } from "../types.ts";
import type { Ingestor } from "../ingest/ingest.ts";
import {
  decodeOsmAndRequest,
  encodeCommandReply,
  MAX_BODY_LENGTH,
} from "../protocols/osmand/index.ts";

/**
 * OsmAnd / Traccar Client over HTTP: one request carries positions, the answer (sent only
 * after they are stored) may carry the phone's pending command.
 */
export function createOsmAndHandler(deps: {
  directory: DeviceDirectory;
  ingestor: Ingestor;
  commands: Pick<CommandDesk, "takeHttpCommand">;
  log?: (m: string) => void;
}) {
  const log = deps.log ?? ((m: string) => console.log(m));
  return async (req: Request): Promise<Response> => {
    const declared = Number(req.headers.get("content-length") ?? 0);
    if (declared > MAX_BODY_LENGTH) return new Response("payload too large", { status: 413 });
    let body = "";
    if (req.method === "POST" && req.body) {
      body = await readLimited(req.body, MAX_BODY_LENGTH);
      if (body === "\0overflow") return new Response("payload too large", { status: 413 });
    }
    const headers = Object.fromEntries(req.headers);
    const decoded = decodeOsmAndRequest({ method: req.method, url: req.url, headers, body });
    if ("error" in decoded) return new Response(decoded.error, { status: 400 });
    const device = await deps.directory.resolve(decoded.deviceId);
    if (!device || !device.enabled) {
      log(`[osmand] device ${decoded.deviceId} not registered in the routing table`);
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
