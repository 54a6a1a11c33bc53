import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { RateLimiter } from "../../lib/http/rate_limiter.ts";
import { clearSessionCookies, setSessionCookies } from "../../lib/http/cookies.ts";
import { currentUserInfo } from "../accounts/current.ts";
import { loginBody } from "../accounts/schemas.ts";
import type { Config } from "../../lib/config.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { AlertSettingsStore } from "../alerts/settings.ts";
import type { CaptchaService } from "./captcha.ts";
import type { AuthService } from "./service.ts";
import type { AnnouncementService } from "../announcements/service.ts";

/** The services these routes use (the composition root passes them). */
export interface AuthRouteDeps {
  access: AccessGuard;
  accountStore: AccountLookup;
  alertSettings: AlertSettingsStore;
  announcements: AnnouncementService;
  auth: AuthService;
  captcha: CaptchaService;
  config: Config;
}

/** Captchas per address per minute: each one is a store write, and the route is public. */
export const CAPTCHAS_PER_MINUTE = 60;

export function registerAuthRoutes(api: ApiRegistry, s: AuthRouteDeps) {
  const captchaLimiter = new RateLimiter(CAPTCHAS_PER_MINUTE, 60_000);

  api.add({
    method: "get",
    path: "/v3/new/account/captcha",
    need: "public",
    tag: "Session",
    summary: "A new login captcha (SVG), single use, valid two minutes",
    access: "public",
    handler: async ({ c }) => {
      if (!captchaLimiter.hit(c.var.clientIp)) throw new BizError("requestTooOften");
      const { captchaId, image } = await s.captcha.issue();
      return { captchaId, image, enabled: s.config.CAPTCHA === "on" };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/account/login",
    need: "public",
    tag: "Session",
    summary:
      "Log in; returns data.token (JWT) and sets the session cookies. A refusal with data.captchaRequired: retry with a captcha",
    access: "public",
    body: loginBody,
    handler: async ({ body, c }) => {
      const { token, expiresAt } = await s.auth.login(body, {
        ip: c.var.clientIp,
        userAgent: c.req.header("user-agent") ?? "",
      });
      setSessionCookies(c, token, expiresAt, s.config.SECURE_COOKIES === "on");
      return { token, expiresAt };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/account/logout",
    need: "self",
    tag: "Session",
    summary: "Log out: revokes the token",
    handler: async ({ c }) => {
      await s.auth.logout(c.var.session.jti);
      clearSessionCookies(c);
      return null;
    },
  });

  api.add({
    method: "get",
    path: "/v3/new/account/current",
    need: "read",
    tag: "Session",
    summary: "The current user (spec §3 fields, units normalised per §4)",
    query: z.object({ timestamp: z.string().max(20).optional() }),
    handler: async ({ c }) => {
      const { self, owner } = await s.access.caller(c.var.session);
      const parent = owner.parentId ? await s.accountStore.get(owner.parentId) : null;
      // One alarm-sound setting: the alert settings' (what the pop-up plays by), not a copy.
      const soundFlag = s.alertSettings.account(owner.id).sound ? 1 : 0;
      // Spec §3 announcementList: the announcements received that are within their period.
      const announcementList = await s.announcements.current(c.var.session);
      return { ...currentUserInfo(self, owner, parent), soundFlag, announcementList };
    },
  });

  api.add({
    method: "post",
    path: "/v3/new/account/loginLogs",
    need: "read",
    tag: "Session",
    summary: "The caller's login log, newest first",
    body: z.object({
      cursor: z.string().max(200).optional(),
      pageSize: z.number().int().min(1).max(100).default(20),
    })
      .strict(),
    handler: ({ body, c }) => s.auth.loginLog(c.var.session, body.pageSize, body.cursor),
  });
}
