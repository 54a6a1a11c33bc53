import type { Config } from "./config.ts";
import { AccessGuard } from "../modules/accounts/access.ts";
import { AccountService } from "../modules/accounts/service.ts";
import { AccountStore } from "../modules/accounts/store.ts";
import { AuthService } from "../modules/auth/service.ts";
import { AuthStore } from "../modules/auth/store.ts";
import { CaptchaService } from "../modules/auth/captcha.ts";
import { DomainStore } from "../modules/domains/store.ts";

/** Everything the process shares, built once from an open store and the configuration. */
export interface Services {
  kv: Deno.Kv;
  config: Config;
  accountStore: AccountStore;
  accounts: AccountService;
  access: AccessGuard;
  authStore: AuthStore;
  auth: AuthService;
  captcha: CaptchaService;
  domains: DomainStore;
}

export function createServices(kv: Deno.Kv, config: Config): Services {
  const accountStore = new AccountStore(kv);
  const access = new AccessGuard(accountStore);
  const accounts = new AccountService(accountStore, access);
  const authStore = new AuthStore(kv);
  const captcha = new CaptchaService(kv);
  const auth = new AuthService(authStore, accountStore, captcha, config);
  accounts.onSessionsInvalid = (id) => auth.forceLogout(id);
  return {
    kv,
    config,
    accountStore,
    accounts,
    access,
    authStore,
    auth,
    captcha,
    domains: new DomainStore(kv),
  };
}
