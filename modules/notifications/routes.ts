import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { pageFields, password } from "../accounts/schemas.ts";
import { BALANCE_REMINDERS, MESSAGE_TYPES, type MessageType } from "./messages.ts";
import { PasswordRecovery } from "./recovery.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountService } from "../accounts/service.ts";
import type { CodeStore } from "./codes.ts";
import type { Mailer } from "./mailer.ts";
import type { MessageStore } from "./messages.ts";

/** The services these routes use (the composition root passes them). */
export interface NotificationRouteDeps {
  access: AccessGuard;
  accounts: AccountService;
  codes: CodeStore;
  mailer: Mailer;
  messages: MessageStore;
}

export function registerNotificationRoutes(api: ApiRegistry, s: NotificationRouteDeps) {
  const tag = "Messages";
  const recovery = new PasswordRecovery({
    accounts: s.accounts,
    codes: s.codes,
    mailer: s.mailer,
  });
  const self = async (session: Parameters<typeof s.access.caller>[0]) =>
    (await s.access.caller(session)).self.id;

  api.add({
    method: "post",
    path: "/v3/new/message/list",
    need: "read",
    tag,
    summary: "Message center: platform messages of the caller with read state",
    body: z.object({
      type: z.number().int().refine(
        (t): t is MessageType => (MESSAGE_TYPES as readonly number[]).includes(t),
        "validation.invalid",
      ).optional(),
      read: z.union([z.literal("all"), z.literal(0), z.literal(-1)]).default("all"),
      ...pageFields,
    }).strict(),
    handler: async ({ body, c }) =>
      s.messages.list(await self(c.var.session), { ...body, type: body.type as MessageType }),
  });
  api.add({
    method: "post",
    path: "/v3/new/message/mark",
    need: "self",
    tag,
    summary: "Mark messages (ids, or all when omitted) read (0) or unread (-1)",
    body: z.object({
      ids: z.array(z.string().min(1).max(64)).max(100).optional(),
      read: z.union([z.literal(0), z.literal(-1)]),
    }).strict(),
    handler: async ({ body, c }) => ({
      changed: await s.messages.mark(await self(c.var.session), body.read, body.ids),
    }),
  });
  api.add({
    method: "post",
    path: "/v3/new/message/prefs/get",
    need: "read",
    tag,
    summary: "Message preferences of the caller (balance reminder: off, daily, weekly, monthly)",
    body: z.object({}).strict(),
    handler: async ({ c }) => s.messages.prefs(await self(c.var.session)),
  });
  api.add({
    method: "post",
    path: "/v3/new/message/prefs/save",
    need: "self",
    tag,
    summary:
      "Save message preferences (balance reminders at 10:00: daily, Mondays, or the 1st; the balance thresholds, null: not watched)",
    body: z.object({
      balanceReminder: z.enum(BALANCE_REMINDERS).optional(),
      balanceThresholds: z.object({
        coins: z.number().min(0).max(10_000_000).multipleOf(0.01).nullable(),
        cards: z.number().int().min(0).max(10_000_000).nullable(),
        credits: z.number().int().min(0).max(100_000_000).nullable(),
      }).strict().optional(),
    }).strict(),
    handler: async ({ body, c }) => {
      const id = await self(c.var.session);
      await s.messages.savePrefs(id, body);
      return await s.messages.prefs(id);
    },
  });
  api.add({
    method: "post",
    path: "/v3/new/passwordRecovery/sendCode",
    need: "public",
    tag: "Account",
    access: "public",
    summary: "Password recovery: mail a code to the account's email (once a minute)",
    body: z.object({ account: z.string().trim().min(1).max(50) }).strict(),
    handler: ({ body }) => recovery.sendCode(body.account),
  });
  api.add({
    method: "post",
    path: "/v3/new/passwordRecovery/reset",
    need: "public",
    tag: "Account",
    access: "public",
    summary: "Password recovery: set a new password with the mailed code",
    body: z.object({
      account: z.string().trim().min(1).max(50),
      code: z.string().regex(/^\d{6}$/, "validation.codeForm"),
      password,
      confirmPassword: z.string(),
    }).strict(),
    handler: async ({ body }) => {
      if (body.password !== body.confirmPassword) {
        throw new BizError("passwordMismatch", {}, { field: "confirmPassword" });
      }
      await recovery.reset(body.account, body.code, body.password);
    },
  });
}
