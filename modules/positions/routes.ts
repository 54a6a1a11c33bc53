import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { encodeColumns } from "./columns.ts";
import type { Playback } from "./playback.ts";

export { PLAYBACK_MAX_DAYS } from "./playback.ts";

/** The services these routes use (the composition root passes them). */
export interface PositionRouteDeps {
  playback: Playback;
}

const isoTime = z.string().max(40).refine(
  (v) => !Number.isNaN(Date.parse(v)),
  "validation.dateForm",
);

export const playbackBody = z.object({
  imei: z.string().regex(/^\d{15}$/, "validation.imeiForm"),
  startTime: isoTime,
  endTime: isoTime,
  /** "points" (default): one object per point; "columns": the compact form of columns.ts. */
  format: z.enum(["points", "columns"]).optional(),
}).strict();

export function registerPositionRoutes(api: ApiRegistry, s: PositionRouteDeps) {
  api.add({
    method: "post",
    path: "/v3/new/monitor/playback",
    need: "read",
    tag: "Monitor",
    summary:
      "A device's track in time order (at most 31 days per query); speeds in km/h, times ISO-8601 UTC. format=columns answers one delta-encoded integer array per field (about a fifth of the size)",
    body: playbackBody,
    handler: async ({ body, c }) => {
      const from = Date.parse(body.startTime), to = Date.parse(body.endTime);
      const session = c.var.session;
      if (body.format === "columns") {
        const points = await s.playback.points(session, body.imei, from, to);
        return { imei: body.imei, ...encodeColumns(points) };
      }
      // Hand-built JSON (see json.ts), streamed block by block as the client reads.
      const parts = (await s.playback.jsonParts(session, body.imei, from, to))[Symbol.iterator]();
      const msg = JSON.stringify(c.var.t("common.success"));
      const encoder = new TextEncoder();
      const comma = encoder.encode(",");
      let head: Uint8Array | null = encoder.encode(
        `{"code":10000,"msg":${msg},"data":{"imei":"${body.imei}","points":[`,
      );
      let first = true;
      const stream = new ReadableStream<Uint8Array>({
        pull(ctrl) {
          if (head) {
            ctrl.enqueue(head as Uint8Array<ArrayBuffer>);
            head = null;
            return;
          }
          const next = parts.next();
          if (next.done) {
            ctrl.enqueue(encoder.encode("]}}"));
            ctrl.close();
            return;
          }
          if (!first) ctrl.enqueue(comma as Uint8Array<ArrayBuffer>);
          first = false;
          ctrl.enqueue(next.value as Uint8Array<ArrayBuffer>);
        },
      });
      return new Response(stream, {
        headers: { "content-type": "application/json; charset=utf-8" },
      });
    },
  });
}
