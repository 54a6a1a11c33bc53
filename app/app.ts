import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { getConnInfo } from "hono/deno";
import { getCookie } from "hono/cookie";
import { BizError } from "../lib/errors.ts";
import { ApiRegistry } from "../lib/http/api.ts";
import { csrfOk, readToken } from "../lib/http/cookies.ts";
import type { AppEnv } from "../lib/http/env.ts";
import { refusal } from "../lib/http/respond.ts";
import { LOCALE_COOKIE, normalizeLang, translator } from "../lib/i18n/i18n.ts";
import type { Services } from "./compose.ts";
import { metricsHandler } from "./metrics.ts";
import { registerHealth, type StoreHealth } from "./health.ts";
import { log } from "../lib/log.ts";
import { registerAuthRoutes } from "../modules/auth/routes.ts";
import { registerAccountRoutes } from "../modules/accounts/routes.ts";
import {
  domainImageRoutes,
  registerDomainRoutes,
  UPLOAD_IMAGE_BODY_LIMIT,
  UPLOAD_IMAGE_PATH,
} from "../modules/domains/routes.ts";
import { registerSystemRoutes } from "../modules/system/routes.ts";
import { registerDeviceRoutes } from "../modules/devices/routes.ts";
import { registerWalletRoutes } from "../modules/wallet/routes.ts";
import { registerCreditRoutes } from "../modules/credits/routes.ts";
import { registerPackageRoutes } from "../modules/packages/routes.ts";
import { registerPositionRoutes } from "../modules/positions/routes.ts";
import { registerCommandRoutes } from "../modules/commands/routes.ts";
import { registerMonitorRoutes } from "../modules/monitor/routes.ts";
import { registerGeofenceRoutes } from "../modules/geofences/routes.ts";
import { registerAlertRoutes } from "../modules/alerts/routes.ts";
import { registerNotificationRoutes } from "../modules/notifications/routes.ts";
import { registerWorkModeRoutes } from "../modules/workmodes/routes.ts";
import { registerGeocoderRoutes } from "../modules/geocoder/routes.ts";
import { registerTaskRoutes } from "../modules/tasks/routes.ts";
import { registerExportRoutes } from "../modules/reports/export/routes.ts";
import { registerMyReportRoutes } from "../modules/reports/my_reports_routes.ts";
import { registerAutoReportRoutes } from "../modules/autoreports/routes.ts";
import { registerMotionRoutes } from "../modules/motion/routes.ts";
import { registerReportRoutes } from "../modules/reports/routes.ts";
import { registerDemoRoutes } from "../modules/demo/routes.ts";
import { registerEmbedRoutes } from "../modules/embed/routes.ts";
import { registerPushRoutes } from "../modules/openapi/push_routes.ts";
import { registerOpenKeyRoutes } from "../modules/openapi/key_routes.ts";
import { registerOpenRest } from "../modules/openapi/rest.ts";
import { isOpenToken, sessionAppKey } from "../modules/openapi/tokens.ts";
import { SCOPE_NEEDS } from "../modules/accounts/needs.ts";
import { registerAccountInfoRoutes } from "../modules/accountinfo/routes.ts";
import { registerOwnEmailRoutes } from "../modules/ownemail/routes.ts";
import { registerCommonAddressRoutes } from "../modules/commonaddress/routes.ts";
import { registerAreaSearchRoutes } from "../modules/areasearch/routes.ts";
import { registerBusinessLogRoutes } from "../modules/businesslog/routes.ts";
import {
  MANUAL_UPLOAD_BODY_LIMIT,
  MANUAL_UPLOAD_PATH,
  registerManualRoutes,
} from "../modules/manual/routes.ts";
import { registerAnnouncementRoutes } from "../modules/announcements/routes.ts";
import {
  FLEET_AVATAR_BODY_LIMIT,
  FLEET_AVATAR_PATH,
  registerFleetRoutes,
} from "../modules/fleet/routes.ts";
import { registerFleetPathRoutes } from "../modules/fleet/paths_routes.ts";
import { registerFleetReminderRoutes } from "../modules/fleet/reminders_routes.ts";
import { registerVideoRoutes } from "../modules/video/routes.ts";

const httpLog = log.area("http");

/** JSON bodies above this are refused before parsing (uploads get their own limits). */
const API_BODY_LIMIT = 1024 * 1024;
/** Upload routes whose files may be larger than a JSON body: path → body limit. */
const UPLOAD_BODY_LIMITS = new Map([
  [UPLOAD_IMAGE_PATH, UPLOAD_IMAGE_BODY_LIMIT],
  [FLEET_AVATAR_PATH, FLEET_AVATAR_BODY_LIMIT],
  [MANUAL_UPLOAD_PATH, MANUAL_UPLOAD_BODY_LIMIT],
]);

export interface AppParts {
  app: Hono<AppEnv>;
  api: ApiRegistry;
  requireSession: (c: Context<AppEnv>) => Promise<void>;
}

/**
 * Builds the HTTP application: middleware, the API of every module, then pages. `storeHealth`
 * is the store backend's check for cluster mode's /health (app/health.ts).
 */
export function createApp(
  s: Services,
  mountPages?: (parts: AppParts) => void,
  storeHealth?: StoreHealth,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const api = new ApiRegistry();

  // First, so the time and status of everything below (errors included) are counted.
  app.use("*", s.metrics.http.middleware());
  app.use("*", async (c, next) => {
    c.set("requestId", crypto.randomUUID());
    c.set("clientIp", clientIp(c));
    const domain = await s.domains.forHost(new URL(c.req.url).host);
    const lang = normalizeLang(
      getCookie(c, LOCALE_COOKIE) ?? c.req.header("x-locale"),
      domain.defaultLanguage,
    );
    c.set("lang", lang);
    c.set("t", translator(lang));
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "same-origin");
    if (!c.res.headers.has("X-Frame-Options") && !c.req.path.startsWith("/iframe")) {
      c.header("X-Frame-Options", "SAMEORIGIN");
    }
  });

  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: (c) => refusal(c as Context<AppEnv>, new BizError("payloadTooLarge", {}, null, 413)),
    });
  const apiLimit = limit(API_BODY_LIMIT);
  const uploadLimits = new Map([...UPLOAD_BODY_LIMITS].map(([path, max]) => [path, limit(max)]));
  app.use("/v3/*", (c, next) => (uploadLimits.get(c.req.path) ?? apiLimit)(c, next));
  // The pop-up window check lives outside /v3 (spec console §7).
  app.use("/tsp2/*", apiLimit);

  app.onError((err, c) => {
    if (err instanceof BizError) return refusal(c, err);
    httpLog.error(`[${c.var.requestId}] ${c.req.method} ${c.req.path} failed`, err);
    return c.json(
      { code: 49002, msg: c.var.t?.("errors.systemBusy") ?? "System busy", data: null },
      500,
    );
  });

  const requireSession = async (c: Context<AppEnv>) => {
    const found = readToken(c);
    // An Open API access token (Bearer only) acts as its account within its key's scope.
    const session = found &&
      (found.via === "bearer" && isOpenToken(found.token)
        ? await s.openTokens.session(found.token)
        : await s.auth.authenticate(found.token, found.via));
    if (!session) throw new BizError("tokenInvalid", {}, null, 401);
    // A key's calls on the REST API count against its rate like its /route/rest calls.
    const appKey = sessionAppKey(session);
    if (appKey && !s.openLimits.key(appKey)) {
      throw new BizError("openTooFrequent", {}, null, 429);
    }
    if (session.via === "cookie" && !csrfOk(c)) throw new BizError("csrfRejected", {}, null, 403);
    c.set("session", session);
  };

  registerSystemRoutes(api, s);
  registerAuthRoutes(api, s);
  registerAccountRoutes(api, s);
  registerDomainRoutes(api, s);
  registerDeviceRoutes(api, s);
  registerWalletRoutes(api, s);
  registerCreditRoutes(api, s);
  registerPackageRoutes(api, s);
  registerPositionRoutes(api, s);
  registerCommandRoutes(api, s);
  registerMonitorRoutes(api, s);
  registerGeofenceRoutes(api, s);
  registerAlertRoutes(api, s);
  registerNotificationRoutes(api, s);
  registerWorkModeRoutes(api, s);
  registerGeocoderRoutes(api, s);
  registerTaskRoutes(api, s);
  registerExportRoutes(api, s);
  registerMyReportRoutes(api, s);
  registerAutoReportRoutes(api, s);
  registerMotionRoutes(api, s);
  registerReportRoutes(api, s);
  registerDemoRoutes(api, s);
  registerEmbedRoutes(api, s);
  registerPushRoutes(api, s);
  registerOpenKeyRoutes(api, s);
  registerAccountInfoRoutes(api, s);
  registerOwnEmailRoutes(api, s);
  registerCommonAddressRoutes(api, s);
  registerAreaSearchRoutes(api, s);
  registerBusinessLogRoutes(api, s);
  registerManualRoutes(api, s);
  registerAnnouncementRoutes(api, s);
  registerFleetRoutes(api, s);
  registerFleetPathRoutes(api, s);
  registerFleetReminderRoutes(api, s);
  registerVideoRoutes(api, s);
  app.route("/", domainImageRoutes(s));

  registerHealth(app, s, storeHealth);
  app.get("/metrics", metricsHandler(s.metrics.registry, s.config.METRICS_TOKEN));
  app.get(
    "/v3/new/openapi.json",
    (c) => c.json(api.openapi({ title: "Tracking Platform API", version: "3" }, OPEN_API_KEY_AUTH)),
  );

  // The Tracksolid-form endpoint: outside /v3, the envelope and the body reader (issue 22).
  registerOpenRest(app, {
    config: s.config,
    keys: s.openKeys,
    tokens: s.openTokens,
    limits: s.openLimits,
    access: s.access,
    accounts: s.accountStore,
    methods: [...s.openFrameMethods, ...s.openMethods],
  });

  // Every business operation that succeeded goes to the business log (modules/businesslog).
  api.mount(app, requireSession, (c, need) => s.access.assertNeed(c.var.session, need), {
    // The change is done: a log failure is reported, never turned into a failed request.
    onChange: (change) =>
      s.businessLog.record(change).catch((e) =>
        httpLog.error(`[${change.c.var.requestId}] business log of ${change.def.path}`, e)
      ),
  });
  // After the pages: /v3/new/docs is a page under /v3, and Hono answers with the first match.
  mountPages?.({ app, api, requireSession });
  app.all("/v3/*", (c) => refusal(c, new BizError("notFound", {}, null, 404)));
  return app;
}

/**
 * The Open API app key's access token in the OpenAPI document (issue 22): `Authorization:
 * Bearer` with the token of jimi.oauth.token.get, each operation's `x-need` within the key's
 * scope (modules/accounts/needs.ts SCOPE_NEEDS).
 */
const OPEN_API_KEY_AUTH = {
  securitySchemes: {
    appKeyToken: {
      type: "http",
      scheme: "bearer",
      description: "The accessToken of an Open API app key (jimi.oauth.token.get at POST " +
        "/route/rest, see /openApiDocs). It acts as its account, limited to the key's scope: " +
        Object.entries(SCOPE_NEEDS).map(([s, needs]) => `${s} covers x-need ${needs.join(", ")}`)
          .join("; ") +
        ". Other needs (self, recharge) are refused.",
    },
  },
};

function clientIp(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown"; // app.request() in tests has no socket
  }
}
