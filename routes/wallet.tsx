import type { PageKit } from "./mount.tsx";
import { SettingsLayout } from "../components/Shell.tsx";
import type { PageContext } from "../app/pages/context.ts";
import Wallet from "../islands/wallet/Wallet.tsx";
import BusinessCentre from "../islands/wallet/BusinessCentre.tsx";
import type { WalletMe } from "../components/wallet/types.ts";

/** The logged-in user as the wallet islands need it. */
function walletMe(ctx: PageContext): WalletMe {
  const u = ctx.user!;
  return {
    id: u.userId,
    account: u.account,
    nickName: u.nickName,
    accountType: u.accountType,
    isPlatform: u.accountType === 0 && u.parentId === "" && !u.userFictitiousFlag,
    isVirtual: u.userFictitiousFlag,
  };
}

/**
 * The settings area's wallet group: /settingMiCoins (spec) and the business centre's
 * packages at /businessCenter (the spec names the screen, not its path; docs/decisions.md).
 */
export function registerWalletPages({ privatePage, renderer }: PageKit) {
  privatePage("/settingMiCoins", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.settingMiCoins"),
      <SettingsLayout ctx={ctx}>
        <Wallet lang={ctx.lang} me={walletMe(ctx)} />
      </SettingsLayout>,
    ));
  privatePage("/businessCenter", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("settings.items.businessCenter"),
      <SettingsLayout ctx={ctx}>
        <BusinessCentre lang={ctx.lang} me={walletMe(ctx)} />
      </SettingsLayout>,
    ));
}
