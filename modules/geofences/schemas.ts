import { z } from "zod";
import { pageFields } from "../accounts/schemas.ts";
import { isClosed, polygonSpan } from "./geometry.ts";
import { MAX_POLYGON_SPAN_M, RADIUS } from "./model.ts";

export { MAX_POLYGON_SPAN_M, RADIUS };
const accountId = z.string().min(1).max(64);
const imei = z.string().regex(/^\d{15}$/, "validation.imeiForm");
export const zoneKind = z.enum(["fence", "landmark", "blackCar"]);

const latLng = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
}).strict();

const circle = z.object({
  kind: z.literal("circle"),
  center: latLng,
  radius: z.number().int(),
}).strict();

const polygon = z.object({
  kind: z.literal("polygon"),
  points: z.array(latLng).min(4).max(500),
}).strict()
  .refine((p) => isClosed(p.points), { message: "validation.notClosed", path: ["points"] })
  .refine((p) => polygonSpan(p.points) <= MAX_POLYGON_SPAN_M, {
    message: "validation.spanTooLarge",
    path: ["points"],
  });

export const shape = z.discriminatedUnion("kind", [circle, polygon]);

export const zoneBody = z.object({
  id: z.string().max(64).optional(),
  kind: zoneKind,
  /** Owner account; defaults to the caller's. */
  userId: accountId.optional(),
  name: z.string().trim().min(1).max(50),
  description: z.string().trim().max(500).default(""),
  groupId: z.string().max(80).optional(),
  shape,
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, "validation.color").default("#3b7aff"),
  enterAlert: z.boolean().default(false),
  exitAlert: z.boolean().default(false),
  notInAlert: z.boolean().default(false),
  notOutAlert: z.boolean().default(false),
  stayDays: z.number().int().min(1).max(365).default(1),
  command: z.string().trim().max(500).default(""),
  /** The login password, when the command is an instruction that needs it (never stored). */
  password: z.string().max(100).optional(),
  emailAlert: z.boolean().default(false),
  imeis: z.array(imei).max(1000).default([]),
}).strict().superRefine((z0, ctx) => {
  if (z0.shape.kind !== "circle") return;
  const [min, max] = RADIUS[z0.kind];
  if (z0.shape.radius < min || z0.shape.radius > max) {
    ctx.addIssue({
      code: "custom",
      path: ["shape", "radius"],
      message: `validation.radius.${z0.kind}`,
    });
  }
});

export const listBody = z.object({
  kind: zoneKind,
  userId: accountId.optional(),
  groupId: z.string().max(80).optional(),
  keyword: z.string().trim().max(50).optional(),
  review: z.enum(["reviewing", "passed", "rejected"]).optional(),
  ...pageFields,
}).strict();

export const idBody = z.object({ id: z.string().min(1).max(80) }).strict();
export const bindBody = z.object({ id: z.string().min(1).max(80), imeis: z.array(imei).max(1000) })
  .strict();
export const reviewBody = z.object({
  id: z.string().min(1).max(80),
  review: z.enum(["passed", "rejected"]),
}).strict();

export const groupBody = z.object({
  id: z.string().max(80).optional(),
  userId: accountId.optional(),
  name: z.string().trim().min(1).max(20),
}).strict();
export const groupListBody = z.object({ userId: accountId.optional() }).strict();
export const groupTopBody = z.object({ id: z.string().min(1).max(80), top: z.boolean() }).strict();
/** Moves fences into a group; the spec limits moves per batch (number not shown: 20). */
export const groupMoveBody = z.object({
  groupId: z.string().min(1).max(80),
  ids: z.array(z.string().min(1).max(80)).min(1).max(20),
}).strict();
