import type { ComponentChildren } from "preact";
import type { PageKit } from "./mount.tsx";
import { SettingsLayout } from "../components/Shell.tsx";
import type { PageContext } from "../app/pages/context.ts";
import { DEVICE_MODELS } from "../modules/devices/models.ts";
import { INSTRUCTIONS, instructionsFor } from "../modules/commands/catalogue/index.ts";
import { MAX_BATCH } from "../modules/commands/schemas.ts";
import BatchCommand from "../islands/commands/BatchCommand.tsx";
import CommandStatus from "../islands/commands/CommandStatus.tsx";
import CommandTemplates from "../islands/commands/CommandTemplates.tsx";
import WorkModeTemplates from "../islands/commands/WorkModeTemplates.tsx";
import BatchWorkMode from "../islands/commands/BatchWorkMode.tsx";
import WorkModeStatus from "../islands/commands/WorkModeStatus.tsx";
import type { Catalogue } from "../components/commands/types.ts";

/** The catalogue as the pages need it: instructions with parameters, and per-model support. */
function catalogue(): Catalogue {
  return {
    instructions: Object.values(INSTRUCTIONS).map((i) => ({
      ...i,
      params: i.params.map((p) => ({ ...p })) as Catalogue["instructions"][number]["params"],
    })),
    models: DEVICE_MODELS.map((m) => ({
      mcType: m.mcType,
      name: m.name,
      instructions: instructionsFor(m.mcType).map((i) => ({
        code: i.code,
        passwordRequired: i.passwordRequired,
      })),
    })),
  };
}

/** The tree root of the device picker: the account the user works in. */
function root(ctx: PageContext) {
  const u = ctx.user!;
  return { id: u.userId, account: u.account, nickName: u.nickName, accountType: u.accountType };
}

/** Settings-area pages of the command area (spec §2). */
export function registerCommandPages({ privatePage, renderer, services }: PageKit) {
  const page = (
    path: string,
    key: string,
    body: (ctx: PageContext, url: URL) => ComponentChildren | Promise<ComponentChildren>,
  ) =>
    privatePage(path, async (c, ctx) =>
      renderer.html(
        c,
        ctx,
        ctx.t(`settings.items.${key}`),
        <SettingsLayout ctx={ctx}>{await body(ctx, new URL(c.req.url))}</SettingsLayout>,
      ));
  /** Spec §6: batches need the flag, and a virtual user also its instructions scope. */
  const mayBatch = (ctx: PageContext, flag: 0 | 1) =>
    flag === 1 && ctx.user!.instructionsFlag === 1;
  /** The owner account's command flag (send or modify), and a virtual user's scope. */
  const mayFlag = async (ctx: PageContext, flag: "sendCommandFlag" | "modifyCommandFlag") => {
    const owner = await services.accountStore.get(ctx.user!.userId);
    return owner?.permissions[flag] === 1 && ctx.user!.instructionsFlag === 1;
  };

  page("/batchCommand", "batchCommand", (ctx) => (
    <BatchCommand
      lang={ctx.lang}
      root={root(ctx)}
      allowed={mayBatch(ctx, ctx.user!.isBatchSendIns)}
      catalogue={catalogue()}
      maxDevices={MAX_BATCH}
    />
  ));
  page("/commandStatus", "commandStatus", async (ctx, url) => (
    <CommandStatus
      lang={ctx.lang}
      batchNo={url.searchParams.get("batchNo")?.slice(0, 40) ?? ""}
      canSend={await mayFlag(ctx, "sendCommandFlag")}
    />
  ));
  page(
    "/commandTemplate",
    "commandTemplate",
    async (ctx) => (
      <CommandTemplates
        lang={ctx.lang}
        catalogue={catalogue()}
        canModify={await mayFlag(ctx, "modifyCommandFlag")}
      />
    ),
  );
  page(
    "/workingModeTemplate",
    "workingModeTemplate",
    async (ctx) => (
      <WorkModeTemplates lang={ctx.lang} canModify={await mayFlag(ctx, "modifyCommandFlag")} />
    ),
  );
  page("/batchWorkingMode", "batchWorkingMode", (ctx) => (
    <BatchWorkMode
      lang={ctx.lang}
      root={root(ctx)}
      allowed={mayBatch(ctx, ctx.user!.isBatchSendFm)}
      maxDevices={MAX_BATCH}
    />
  ));
  page(
    "/workingModeStatus",
    "workingModeStatus",
    (ctx, url) => (
      <WorkModeStatus
        lang={ctx.lang}
        batchNo={url.searchParams.get("batchNo")?.slice(0, 40) ?? ""}
      />
    ),
  );
}
