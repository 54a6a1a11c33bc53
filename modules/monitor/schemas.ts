import { z } from "zod";

const imei = z.string().regex(/^\d{15}$/, "validation.imeiForm");

export const objectsQuery = z.object({ imei: imei.optional() }).strict();
export const streamQuery = objectsQuery;

/** hours is checked by the service so the refusal is the catalogue's own message. */
export const shareCreateBody = z.object({ imei, hours: z.number() }).strict();
export const shareListBody = z.object({ imei }).strict();
export const shareTokenBody = z.object({ token: z.string().min(1).max(100) }).strict();
