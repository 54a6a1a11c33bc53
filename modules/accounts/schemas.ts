import { z } from "zod";
import { ACCOUNT_TYPE_VALUES, PERMISSION_FLAGS } from "./model.ts";

/** Spec §5 account rules. Refinement messages are i18n keys under validation.* */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const loginAccount = z.string().trim().min(3).max(50).refine(
  (v) => /^[A-Za-z0-9][A-Za-z0-9_]*$/.test(v) || EMAIL.test(v),
  "validation.loginAccountForm",
);
export const virtualLogin = z.string().trim().min(5).max(30).refine(
  (v) => /^[A-Za-z0-9][A-Za-z0-9_]*$/.test(v) || EMAIL.test(v),
  "validation.loginAccountForm",
);
export const nickName = z.string().trim().min(3).max(25);
/** One password rule everywhere (docs/decisions.md): 8-50, letters and digits. */
export const password = z.string().min(8).max(50).refine(
  (v) => /[A-Za-z]/.test(v) && /[0-9]/.test(v),
  "validation.passwordForm",
);
export const email = z.string().trim().max(100).refine(
  (v) => v === "" || EMAIL.test(v),
  "validation.format.email",
);
export const phone = z.string().trim().max(20).refine(
  (v) => /^[0-9+\-]*$/.test(v),
  "validation.phoneForm",
);
export const calendarDate = z.string().refine(isCalendarDate, "validation.dateForm");
export const accountId = z.string().trim().min(1).max(20).regex(/^\d+$/, "validation.idForm");
const flag = z.union([z.literal(0), z.literal(1)]);

export function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m || m[1] === "0000") return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

export const permissionsPatch = z.object(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, flag.optional()])) as Record<
    typeof PERMISSION_FLAGS[number],
    z.ZodOptional<typeof flag>
  >,
).strict();

const profileFields = {
  contact: z.string().trim().max(100).optional(),
  phone: phone.optional(),
  email: email.optional(),
  companyName: z.string().trim().max(100).optional(),
  timeZones: z.string().trim().max(64).optional(),
  language: z.enum(["en", "zh"]).optional(),
  country: z.string().trim().max(64).optional(),
  description: z.string().max(2000).optional(),
};

export const addAccountBody = z.object({
  account: loginAccount,
  nickName,
  password,
  accountType: z.number().int().refine(
    (v) => (ACCOUNT_TYPE_VALUES as number[]).includes(v),
    "validation.accountType",
  ),
  parentId: accountId,
  ...profileFields,
  discount: z.number().min(0.01).max(1).optional(),
  expiration: calendarDate.nullable().optional(),
  nodeId: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  permissions: permissionsPatch.optional(),
}).strict();

export const updateAccountBody = z.object({
  id: accountId,
  nickName: nickName.optional(),
  accountType: addAccountBody.shape.accountType.optional(),
  ...profileFields,
  discount: z.number().min(0.01).max(1).optional(),
  expiration: calendarDate.nullable().optional(),
  permissions: permissionsPatch.optional(),
}).strict();

export const idBody = z.object({ id: accountId }).strict();

export const moveBody = z.object({
  ids: z.array(accountId).min(1).max(100),
  targetId: accountId,
}).strict();

export const resetPasswordBody = z.object({ id: accountId, password, confirmPassword: z.string() })
  .strict();

export const changePasswordBody = z.object({
  oldPassword: z.string().min(1).max(100),
  newPassword: password,
  confirmPassword: z.string(),
}).strict();

export const pageFields = {
  pageNum: z.number().int().min(1).max(100000).default(1),
  pageSize: z.union([z.literal(10), z.literal(20), z.literal(30), z.literal(50), z.literal(100)])
    .default(10),
};

export const childrenBody = z.object({
  ...pageFields,
  keyword: z.string().trim().max(50).optional(),
  /** Whose subtree to list; defaults to the caller's own account. */
  parentId: accountId.optional(),
  /** true: only direct children (tree view); default: the whole subtree. */
  directOnly: z.boolean().optional(),
  accountType: z.number().int().optional(),
}).strict();

export const treeBody = z.object({ parentId: accountId.optional() }).strict();

export const addVirtualBody = z.object({
  account: virtualLogin,
  nickName,
  password,
  scope: z.object({ instructionsFlag: flag, updateFlag: flag, videoFlag: flag }).strict(),
  expiration: calendarDate.nullable().optional(),
}).strict();

export const updateVirtualBody = z.object({
  id: accountId,
  nickName: nickName.optional(),
  scope: addVirtualBody.shape.scope.optional(),
  expiration: calendarDate.nullable().optional(),
}).strict();

export const updateProfileBody = z.object({
  nickName: nickName.optional(),
  contact: profileFields.contact,
  phone: profileFields.phone,
  companyName: profileFields.companyName,
  timeZones: profileFields.timeZones,
  language: profileFields.language,
  country: profileFields.country,
  showUnit: z.enum(["km", "mi", "nmi"]).optional(),
  capacity: z.enum(["L", "GAL"]).optional(),
  temperature: z.enum(["°C", "°F"]).optional(),
  userMapType: z.enum(["OpenStreetMap", "Google", "BMap", "Bing"]).optional(),
  googleMapKey: z.string().trim().max(100).optional(),
  /** 1: sub-accounts without a key of their own use this account's key. */
  shareGoogleMapKey: flag.optional(),
  alarmSoundFlag: flag.optional(),
}).strict();

export const loginBody = z.object({
  account: z.string().trim().min(1).max(100),
  password: z.string().min(1).max(100),
  captchaId: z.string().max(64).optional(),
  captchaCode: z.string().max(10).optional(),
}).strict();
