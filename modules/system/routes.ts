import { setCookie } from "hono/cookie";
import { z } from "zod";
import type { ApiRegistry } from "../../lib/http/api.ts";
import { LANGUAGES, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE, RESOURCES } from "../../lib/i18n/i18n.ts";
import { COUNTRIES } from "./countries.ts";
import type { AccessGuard } from "../accounts/access.ts";
import type { AccountLookup } from "../accounts/model.ts";
import type { WalletService } from "../wallet/service.ts";
import type { CreditsReader } from "../wallet/model.ts";
import { HomepageFigures } from "./homepage.ts";

/** The services these routes use (the composition root passes them). */
export interface SystemRouteDeps {
  access: AccessGuard;
  accountStore: AccountLookup;
  wallet: WalletService;
  creditsReader: CreditsReader;
}

/** Service nodes (spec §9): HK=1, EU=2, US=3. */
export const SERVICE_NODES = [
  { nodeId: 1, code: "HK", nameKey: "nodes.hk" },
  { nodeId: 2, code: "EU", nameKey: "nodes.eu" },
  { nodeId: 3, code: "US", nameKey: "nodes.us" },
] as const;

export function registerSystemRoutes(api: ApiRegistry, s: SystemRouteDeps) {
  const tag = "Tools";
  const homepage = new HomepageFigures(s.access, s.accountStore, s.wallet, s.creditsReader);
  api.add({
    method: "get",
    path: "/v3/new/tools/i18n",
    need: "public",
    tag,
    summary: "Translations of one language",
    access: "public",
    query: z.object({ lang: z.enum(LANGUAGES).optional() }),
    handler: ({ query, c }) => ({
      lang: query.lang ?? c.var.lang,
      resources: RESOURCES[query.lang ?? c.var.lang],
    }),
  });
  api.add({
    method: "post",
    path: "/v3/new/tools/locale",
    need: "public",
    tag,
    summary: "Switch the console language (kept in the locale cookie for 360 days)",
    access: "public",
    body: z.object({ lang: z.enum(LANGUAGES) }).strict(),
    handler: ({ body, c }) => {
      setCookie(c, LOCALE_COOKIE, body.lang, {
        path: "/",
        maxAge: LOCALE_COOKIE_MAX_AGE,
        sameSite: "Lax",
      });
      return { lang: body.lang };
    },
  });
  api.add({
    method: "get",
    path: "/v3/new/tools/country/all",
    need: "public",
    tag,
    summary: "Countries and regions",
    access: "public",
    handler: () => COUNTRIES,
  });
  api.add({
    method: "get",
    path: "/v3/new/newDevice/getNodeList",
    need: "read",
    tag: "Devices",
    summary: "Service nodes",
    handler: ({ c }) =>
      SERVICE_NODES.map((n) => ({ nodeId: n.nodeId, code: n.code, name: c.var.t(n.nameKey) })),
  });
  api.add({
    method: "post",
    path: "/v3/new/homepage/queryMiCoinsBalance",
    need: "read",
    tag: "Wallet",
    summary: "Mi coin, recharge card and credit balances of the caller",
    body: z.object({}).strict(),
    handler: ({ c }) => homepage.balances(c.var.session),
  });
  api.add({
    method: "get",
    path: "/v3/new/homepage/getResourcesInfo",
    need: "read",
    tag: "Tools",
    summary: "Counts of what the caller's subtree holds",
    handler: ({ c }) => homepage.resources(c.var.session),
  });
}
