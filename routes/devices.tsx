import type { PageKit } from "./mount.tsx";
import { SettingsLayout, Shell } from "../components/Shell.tsx";
import DeviceManager from "../islands/devices/DeviceManager.tsx";
import ModelAlias from "../islands/devices/ModelAlias.tsx";
import type { SelectedAccount } from "../components/devices/types.ts";
import { isDescendantOrSelf } from "../modules/accounts/model.ts";

/** Device pages (spec §2): /devices and the per-user model alias page of the settings area. */
export function registerDevicePages({ privatePage, renderer, services }: PageKit) {
  privatePage("/devices", async (c, ctx) => {
    const user = ctx.user!;
    const canEdit = user.updateDevFlag === 1 && (!user.userFictitiousFlag || user.updateFlag === 1);
    // The subtree the caller works in: its own account, or a virtual user's master.
    const owner = await services.accountStore.get(user.userId);
    const me = {
      id: user.userId,
      account: owner?.account ?? user.account,
      nickName: owner?.nickName ?? user.nickName,
      accountType: user.accountType,
      isVirtual: user.userFictitiousFlag,
      canEdit,
      canBindApp: canEdit && owner?.permissions.bindAppFlag === 1,
      isAdmin: user.accountType === 0 && !user.userFictitiousFlag,
      canRenew: owner?.permissions.rechargeFlag === 1 && !user.userFictitiousFlag,
      canCommand: owner?.permissions.sendCommandFlag === 1 && user.instructionsFlag === 1,
    };
    // A tab opened on an account (?userId=) starts there when it lies in the caller's subtree;
    // the stored record gives the authoritative parent path and nickname.
    const wanted = c.req.query("userId");
    const target = wanted && /^\d{1,20}$/.test(wanted)
      ? await services.accountStore.get(wanted)
      : null;
    const start = target && !target.virtual && isDescendantOrSelf(target, me.id) ? target : owner;
    const initial: SelectedAccount = {
      id: start?.id ?? me.id,
      account: start?.account ?? me.account,
      nickName: start?.nickName ?? me.nickName,
      accountType: start?.accountType ?? me.accountType,
      parentId: start?.parentId ?? "",
      fullParentId: start?.fullParentId ?? "",
    };
    return renderer.html(
      c,
      ctx,
      ctx.t("shell.sections.devices"),
      <Shell ctx={ctx}>
        <DeviceManager lang={ctx.lang} me={me} initial={initial} />
      </Shell>,
    );
  });

  // Spec §2: /Devices opens the device page in a new tab on the account its query names
  // (userId, parentId, fullParentId, nickName); /devices checks that account as usual.
  privatePage("/Devices", (c) => c.redirect(`/devices${new URL(c.req.url).search}`));

  privatePage("/modelNameAlias", (c, ctx) =>
    renderer.html(
      c,
      ctx,
      ctx.t("devices.alias.title"),
      <SettingsLayout ctx={ctx}>
        <ModelAlias lang={ctx.lang} />
      </SettingsLayout>,
    ));
}
