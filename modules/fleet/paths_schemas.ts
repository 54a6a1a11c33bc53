import { z } from "zod";
import { PATH_LIMITS } from "./paths_model.ts";

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:mm");
const point = z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) })
  .strict();
const imei = z.string().trim().regex(/^\d{6,20}$/);

/** Fields of a route as added; update takes the same plus its id. */
const routeFields = {
  name: z.string().trim().min(1).max(PATH_LIMITS.nameMax),
  points: z.array(point).min(2).max(200),
  offset: z.number().int().min(PATH_LIMITS.minOffset).max(PATH_LIMITS.maxOffset)
    .default(PATH_LIMITS.defaultOffset),
  weekdays: z.array(z.number().int().min(1).max(7)).min(1).max(7).default([1, 2, 3, 4, 5, 6, 7]),
  startTime: hhmm.default("00:00"),
  endTime: hhmm.default("23:59"),
  minOffMinutes: z.number().int().min(1).max(PATH_LIMITS.maxMinOffMinutes).default(1),
  imeis: z.array(imei).max(PATH_LIMITS.maxImeis).default([]),
  /** Road-snap through ROUTING_URL (ignored when it is not set). Default: snap when set. */
  snap: z.boolean().optional(),
  /** Create for a visible sub-account (default: the caller's own account). */
  userId: z.string().max(64).optional(),
};

export const addBody = z.object(routeFields).strict();
export const updateBody = z.object({ id: z.string().min(1).max(64), ...routeFields }).strict();
export const deleteBody = z.object({ ids: z.array(z.string().min(1).max(64)).min(1).max(100) })
  .strict();
export const listBody = z.object({
  pageNum: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
  keyword: z.string().trim().max(50).optional(),
  imei: imei.optional(),
  /** One route (the editor opening it). */
  id: z.string().min(1).max(64).optional(),
}).strict();

export type RouteInput = z.infer<typeof addBody>;
