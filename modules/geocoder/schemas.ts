import { z } from "zod";
import { MAX_REVERSE_POINTS, MAX_SEARCH_HITS } from "./types.ts";

const point = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** The device at the point: its owner's landmarks name it first. */
  imei: z.string().regex(/^\d{15}$/, "validation.imeiForm").optional(),
}).strict();

export const reverseBody = z.object({
  points: z.array(point).min(1).max(MAX_REVERSE_POINTS),
  /** Whose landmarks name the points (a visible account; default: the caller's). */
  userId: z.string().min(1).max(64).optional(),
}).strict();

export const searchBody = z.object({
  q: z.string().trim().min(1).max(100),
  userId: z.string().min(1).max(64).optional(),
  limit: z.number().int().min(1).max(MAX_SEARCH_HITS).default(10),
}).strict();
