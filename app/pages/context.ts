import type { TFunction } from "i18next";
import type { Lang } from "../../lib/i18n/i18n.ts";
import type { DomainConfig } from "../../modules/domains/store.ts";
import type { currentUserInfo } from "../../modules/accounts/current.ts";

export type CurrentUser = ReturnType<typeof currentUserInfo>;

/** What every server page knows about its request. */
export interface PageContext {
  lang: Lang;
  t: TFunction;
  domain: DomainConfig;
  /** From the user agent (spec §2: Android, iPhone, Symbian, Windows Phone). */
  mobile: boolean;
  path: string;
  user: CurrentUser | null;
}

const MOBILE_UA = /Android|iPhone|SymbianOS|Windows Phone/i;
export const isMobileAgent = (ua: string) => MOBILE_UA.test(ua);

/** Internet Explorer and browsers too old for ES modules get a notice on the login page. */
export function isOldBrowser(ua: string): boolean {
  if (/MSIE |Trident\//.test(ua)) return true;
  const chrome = /Chrome\/(\d+)/.exec(ua);
  if (chrome && Number(chrome[1]) < 80) return true;
  const firefox = /Firefox\/(\d+)/.exec(ua);
  return !!firefox && Number(firefox[1]) < 78;
}
