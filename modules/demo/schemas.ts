import { z } from "zod";
import { email as emailField, password, phone } from "../accounts/schemas.ts";
import { DEMO_LIMITS, DEMO_STATUSES } from "./model.ts";

const text = (max: number) => z.string().trim().min(1).max(max);

/** The public form (spec §1: department and phone required; §5: consent required). */
export const applyBody = z.object({
  name: text(DEMO_LIMITS.name),
  company: text(DEMO_LIMITS.company),
  department: text(DEMO_LIMITS.department),
  phone: phone.pipe(z.string().min(5)),
  email: emailField.pipe(z.string().min(3)),
  region: z.string().trim().max(DEMO_LIMITS.region).optional(),
  consent: z.literal(true, "validation.consentRequired"),
  captchaId: z.string().min(1).max(64),
  captchaCode: z.string().trim().min(1).max(10),
}).strict();

export const demoId = z.string().regex(/^[\w-]{10,40}$/, "validation.idForm");

export const listBody = z.object({
  status: z.enum(DEMO_STATUSES).optional(),
  pageNum: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
}).strict();

export const approveBody = z.object({ id: demoId }).strict();
export const rejectBody = z.object({
  id: demoId,
  reason: z.string().trim().max(DEMO_LIMITS.reason).default(""),
}).strict();

export const setPasswordBody = z.object({
  token: z.string().min(20).max(64),
  password,
  confirmPassword: z.string().max(50),
}).strict();
