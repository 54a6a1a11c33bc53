import type { Context } from "hono";
import { z } from "zod";
import { BizError } from "../../lib/errors.ts";
import type { ApiRegistry, Need } from "../../lib/http/api.ts";
import type { AppEnv } from "../../lib/http/env.ts";
import { zodRefusal } from "../../lib/http/validation.ts";
import { accountId, pageFields } from "../accounts/schemas.ts";
import { DEVICE_MODELS } from "./models.ts";
import {
  addGroupBody,
  alertsBody,
  aliasBody,
  appBindableBody,
  autoRenewBody,
  basicBody,
  bindBody,
  customerBody,
  enableBody,
  filterBody,
  followBody,
  groupListBody,
  groupRefQuery,
  imei,
  imeiBody,
  imeisBody,
  importBody,
  listBody,
  platformExpiryBody,
  renameGroupBody,
  renewBody,
  searchBody,
  sensorsBody,
  setGroupBody,
  showExpiryBody,
  statsBody,
  transferBody,
  userExpiryBody,
  userRefBody,
} from "./schemas.ts";
import { DeviceSheets, type Translate, XLSX_TYPE } from "./sheets.ts";
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_OPERATION, MAX_RINGTONE_BYTES } from "./files.ts";
import type { DeviceFiles } from "./files.ts";
import type { GroupService } from "./groups.ts";
import type { DeviceOperations } from "./operations.ts";
import type { DeviceRenewal } from "./renewal.ts";
import type { DeviceService } from "./service.ts";
import type { DeviceTransfer } from "./transfer.ts";

/** The services these routes use (the composition root passes them). */
export interface DeviceRouteDeps {
  deviceFiles: DeviceFiles;
  deviceGroups: GroupService;
  deviceOps: DeviceOperations;
  deviceRenewal: DeviceRenewal;
  deviceTransfer: DeviceTransfer;
  devices: DeviceService;
}

const EQ = "/v3/new/newEquipment";

export function registerDeviceRoutes(api: ApiRegistry, s: DeviceRouteDeps) {
  const kit = deviceRouteKit(api, s);
  registerDeviceListRoutes(kit);
  registerDeviceGroupRoutes(kit);
  registerDeviceDetailRoutes(kit);
  registerDeviceStateRoutes(kit);
  registerDeviceSheetRoutes(kit);
  registerDeviceFileRoutes(kit);
  registerModelAliasRoutes(kit);
}

/** What every group of device routes shares: the registry, the services and a POST shorthand. */
interface DeviceRouteKit {
  api: ApiRegistry;
  s: DeviceRouteDeps;
  tag: string;
  sheets: DeviceSheets;
  tr: (c: Context<AppEnv>) => Translate;
  post: <B extends z.ZodType>(
    name: string,
    need: Need,
    summary: string,
    body: B,
    handler: (input: { body: z.infer<B>; c: Context<AppEnv> }) => unknown,
    extra?: { produces?: string },
  ) => void;
}

function deviceRouteKit(api: ApiRegistry, s: DeviceRouteDeps): DeviceRouteKit {
  const tag = "Devices";
  const sheets = new DeviceSheets(s.devices, s.deviceOps);
  const tr = (c: Context<AppEnv>): Translate => (key, params) => c.var.t(key, params ?? {});
  const post = <B extends z.ZodType>(
    name: string,
    need: Need,
    summary: string,
    body: B,
    handler: (input: { body: z.infer<B>; c: Context<AppEnv> }) => unknown,
    extra: { produces?: string } = {},
  ) =>
    api.add({ method: "post", path: `${EQ}/${name}`, need, tag, summary, body, handler, ...extra });
  return { api, s, tag, sheets, tr, post };
}

/** Import, list, search, follow and count devices. */
function registerDeviceListRoutes({ api, s, tag, post }: DeviceRouteKit) {
  post(
    "importEquipment",
    "editData",
    "Import devices by IMEI (15 digits, at most 1000 per call); each bad IMEI is refused on its own",
    importBody,
    ({ body, c }) =>
      s.devices.import(
        c.var.session,
        body,
        (name, params) => c.var.t(`errors.${name}`, params ?? {}),
      ),
  );
  post(
    "queryEquipmentList",
    "read",
    "Devices of an account's subtree: status, model, group, expiry, activation, enabled, bound, follow and advanced filters; paged",
    listBody,
    ({ body, c }) => s.devices.list(c.var.session, body),
  );
  api.add({
    method: "get",
    path: "/v3/new/newDevice/getAllMcType",
    need: "read",
    tag,
    summary: "Device models and their protocols",
    handler: () => DEVICE_MODELS,
  });
  post(
    "globalSearchEquipment",
    "read",
    "Search the caller's whole subtree by IMEI (5-15 digits) or device name",
    searchBody,
    ({ body, c }) => s.deviceOps.search(c.var.session, body.keyword, body.limit),
  );
  post(
    "follow",
    "self",
    "Follow or unfollow devices (per logged-in user)",
    followBody,
    ({ body, c }) => s.deviceOps.follow(c.var.session, body.imeis, body.follow),
  );
  post(
    "getStatistics",
    "read",
    "Device counts of an account's subtree by online and activation state",
    statsBody,
    ({ body, c }) => s.deviceOps.statistics(c.var.session, body),
  );
}

/** Device groups of an account. */
function registerDeviceGroupRoutes({ api, s, tag, post }: DeviceRouteKit) {
  post(
    "getGroupList",
    "read",
    "Groups of an account with device counts (default group first)",
    groupListBody,
    ({ body, c }) => s.deviceGroups.list(c.var.session, body.userId),
  );
  post(
    "addGroup",
    "editData",
    "Add a group (name 1-20 characters, unique per account)",
    addGroupBody,
    ({ body, c }) => s.deviceGroups.add(c.var.session, body.userId, body.name),
  );
  post(
    "updateGroupName",
    "editData",
    "Rename a group (the default group cannot be renamed)",
    renameGroupBody,
    ({ body, c }) => s.deviceGroups.rename(c.var.session, body.userId, body.groupId, body.name),
  );
  api.add({
    method: "delete",
    path: `${EQ}/deleteGroup`,
    need: "editData",
    tag,
    summary: "Delete an empty group (not the default group)",
    query: groupRefQuery,
    handler: ({ query, c }) => s.deviceGroups.remove(c.var.session, query.userId, query.groupId),
  });
  post(
    "topUserGroup",
    "editData",
    "Pin a group on top of the account's list (again to unpin)",
    groupRefQuery,
    ({ body, c }) => s.deviceGroups.top(c.var.session, body.userId, body.groupId),
  );
  post(
    "setGroup",
    "editData",
    'Move devices into a group of their account ("0": the default group); one result per device',
    setGroupBody,
    async ({ body, c }) => {
      const r = await s.deviceGroups.assign(c.var.session, body.imeis, body.groupId);
      return { ...r, results: r.results.map(reasonOf(c)) };
    },
  );
}

/** A device's detail tabs. */
function registerDeviceDetailRoutes({ s, post }: DeviceRouteKit) {
  post(
    "getDeviceDetail",
    "read",
    "A device's basic, customer, alert and sensor data",
    imeiBody,
    ({ body, c }) => s.deviceOps.detail(c.var.session, body.imei),
  );
  post(
    "updateBasic",
    "editData",
    "Save the basic tab",
    basicBody,
    ({ body, c }) => s.deviceOps.updateBasic(c.var.session, body),
  );
  post(
    "updateCustomer",
    "editData",
    "Save the customer tab (driver, vehicle, install); a doubtful VIN needs confirmVin",
    customerBody,
    ({ body, c }) => s.deviceOps.updateCustomer(c.var.session, body),
  );
  post(
    "updateAlerts",
    "editData",
    "Save the alarm settings tab",
    alertsBody,
    ({ body, c }) => s.deviceOps.updateAlerts(c.var.session, body),
  );
  post(
    "updateSensors",
    "editData",
    "Save the sensors tab (inputs, battery, fuel and wired sensors, oil tanks)",
    sensorsBody,
    ({ body, c }) => s.deviceOps.updateSensors(c.var.session, body),
  );
}

/** Enable, activation, expiry, transfer, renewal and app binding. */
function registerDeviceStateRoutes({ s, post }: DeviceRouteKit) {
  post(
    "enableEquipment",
    "editData",
    "Enable or disable devices; one result per device (ok, or the reason it was refused)",
    enableBody,
    async ({ body, c }) => {
      const r = await s.deviceOps.setEnabled(c.var.session, body.imeis, body.enabled);
      return { ...r, results: r.results.map(reasonOf(c)) };
    },
  );
  post(
    "allowActivation",
    "editData",
    "Allow devices awaiting permission to be activated by their next data",
    imeisBody,
    ({ body, c }) => s.deviceOps.allowActivation(c.var.session, body.imeis),
  );
  post(
    "updateUserExpiration",
    "editData",
    "Set the user expiry of activated devices of sub-accounts",
    userExpiryBody,
    ({ body, c }) => s.deviceOps.setUserExpiry(c.var.session, body.imeis, body.userExpiration),
  );
  post(
    "updatePlatformExpiration",
    "editData",
    "Administrator: set the platform expiry (at most ten years ahead)",
    platformExpiryBody,
    ({ body, c }) => s.deviceOps.setPlatformExpiry(c.var.session, body.imeis, body.expiration),
  );
  post(
    "transferEquipment",
    "editData",
    "Sell / transfer devices to an account of the caller's subtree (one transfer at a time)",
    transferBody,
    ({ body, c }) => s.deviceTransfer.transfer(c.var.session, body.imeis, body.targetUserId),
  );
  post(
    "allocationLog",
    "read",
    "Allocation log entries of the caller's subtree, newest first",
    z.object({ imei: imei.optional(), limit: z.number().int().min(1).max(500).optional() })
      .strict(),
    ({ body, c }) => s.deviceTransfer.log(c.var.session, body.imei, body.limit ?? 100),
  );
  post(
    "renewQuote",
    "read",
    "What renewing devices would cost and their new platform expiry, per device, with the balance",
    renewBody,
    async ({ body, c }) => {
      const q = await s.deviceRenewal.quote(c.var.session, body);
      return { ...q, plans: q.plans.map(reasonOf(c)) };
    },
  );
  post(
    "renewEquipment",
    "recharge",
    "Renew devices for 3, 6, 12 or 120 months, paid with recharge cards or Mi coins; one result per device",
    renewBody,
    async ({ body, c }) => {
      const r = await s.deviceRenewal.renew(c.var.session, body);
      return { ...r, results: r.results.map(reasonOf(c)) };
    },
  );
  post(
    "bindAppAccount",
    "bindApp",
    "Bind an app account to a device",
    bindBody,
    ({ body, c }) => s.deviceOps.bindApp(c.var.session, body.imei, body.appAccount),
  );
  post(
    "setAutoRenew",
    "recharge",
    "Auto renewal on (term and payment, paid by the caller's account) or off (null)",
    autoRenewBody,
    ({ body, c }) => s.deviceRenewal.setAutoRenew(c.var.session, body.imeis, body.autoRenew),
  );
  post(
    "setAppBindable",
    "editData",
    "Allow or forbid binding devices by app accounts (spec §4 bindable state)",
    appBindableBody,
    ({ body, c }) => s.deviceOps.setAppBindable(c.var.session, body.imeis, body.bindable),
  );
  post(
    "getShowPlatformExpiration",
    "read",
    "Whether an account of the caller's subtree sees the platform expiry (showPlatformExpiration)",
    userRefBody,
    ({ body, c }) => s.deviceOps.showPlatformExpiry(c.var.session, body.userId),
  );
  post(
    "setShowPlatformExpiration",
    "editData",
    "Show (1) or hide (0) the platform expiry from an account below the caller and its subtree",
    showExpiryBody,
    ({ body, c }) => s.deviceOps.setShowPlatformExpiry(c.var.session, body.userId, body.show),
  );
  post(
    "unbindAppAccount",
    "bindApp",
    "Unbind the app account of a device",
    imeiBody,
    ({ body, c }) => s.deviceOps.unbindApp(c.var.session, body.imei),
  );
}

/** Spreadsheet import, export and batch edit. */
function registerDeviceSheetRoutes({ api, tag, sheets, tr, post }: DeviceRouteKit) {
  api.add({
    method: "get",
    path: `${EQ}/importTemplate`,
    need: "read",
    tag,
    summary: "The xlsx import template (IMEI, device name, SIM)",
    produces: XLSX_TYPE,
    handler: async ({ c }) => xlsx(await sheets.template(tr(c)), "devices-import-template.xlsx"),
  });
  api.add({
    method: "post",
    path: `${EQ}/importEquipmentFile`,
    need: "editData",
    tag,
    summary:
      "Import devices from an xlsx file (multipart: file, userId, mcType, activationMode); one result per row",
    form: importMeta.extend({ file: xlsxFile }),
    handler: async ({ c }) => {
      const form = await c.req.formData();
      const meta = importMeta.safeParse(Object.fromEntries(
        ["userId", "mcType", "activationMode"].map((k) => [k, form.get(k) ?? undefined]),
      ));
      if (!meta.success) throw zodRefusal(meta.error);
      return sheets.importFile(c.var.session, meta.data, await fileBytes(form), tr(c));
    },
  });
  post(
    "exportEquipment",
    "read",
    "The filtered device list as xlsx (at most 30000 rows)",
    filterBody,
    async ({ body, c }) => xlsx(await sheets.export(c.var.session, body, tr(c)), "devices.xlsx"),
    { produces: XLSX_TYPE },
  );
  post(
    "batchEditTemplate",
    "read",
    "Current values of devices as an xlsx to edit and upload",
    imeisBody,
    async ({ body, c }) =>
      xlsx(await sheets.editSheet(c.var.session, body.imeis, tr(c)), "devices-batch-edit.xlsx"),
    { produces: XLSX_TYPE },
  );
  api.add({
    method: "post",
    path: `${EQ}/batchEditUpload`,
    need: "editData",
    tag,
    summary: "Apply an edited batch sheet (multipart: file); one result per row",
    form: z.object({ file: xlsxFile }),
    handler: async ({ c }) =>
      sheets.applyEdit(c.var.session, await fileBytes(await c.req.formData()), tr(c)),
  });
}

/** Install images and ringtones. */
function registerDeviceFileRoutes({ api, s, tag, post }: DeviceRouteKit) {
  api.add({
    method: "post",
    path: `${EQ}/uploadInstallImages`,
    need: "editData",
    tag,
    summary:
      "Upload install images named IMEI(n).jpg/png (multipart: files); ≤ 9 per device, 200 per operation",
    form: z.object({
      files: z.array(
        z.file().mime(["image/jpeg", "image/png"]).max(MAX_IMAGE_BYTES)
          .describe("Named IMEI(n).jpg or IMEI(n).png; the type is read from the content"),
      ).min(1).max(MAX_IMAGES_PER_OPERATION),
    }),
    handler: async ({ c }) => {
      const files = (await c.req.formData()).getAll("files").filter((f) => f instanceof File);
      const results = await s.deviceFiles.uploadImages(c.var.session, files as File[]);
      return results.map((r) => ({
        ...r,
        reason: r.error ? imageReason(c, r.error, r.imei) : "",
      }));
    },
  });
  post(
    "installImageTasks",
    "read",
    "The logged-in user's install image upload tasks, newest first (at most 9999 kept); paged",
    z.object(pageFields).strict(),
    async ({ body, c }) => {
      const page = await s.deviceFiles.imageTasks(c.var.session, body.pageNum, body.pageSize);
      return {
        total: page.total,
        list: page.list.map((task) => ({
          ...task,
          reason: task.error ? imageReason(c, task.error, task.imei) : "",
        })),
      };
    },
  );
  api.add({
    method: "get",
    path: `${EQ}/installImage`,
    need: "read",
    tag,
    summary: "One install image of a device",
    produces: "image/jpeg",
    query: z.object({ imei, name: z.string().max(40) }).strict(),
    handler: ({ query, c }) => s.deviceFiles.readImage(c.var.session, query.imei, query.name),
  });
  post(
    "deleteInstallImage",
    "editData",
    "Delete one install image of a device",
    z.object({ imei, name: z.string().max(40) }).strict(),
    ({ body, c }) => s.deviceFiles.deleteImage(c.var.session, body.imei, body.name),
  );
  api.add({
    method: "post",
    path: `${EQ}/uploadRingtone`,
    need: "editData",
    tag,
    summary:
      "Upload a ringtone (multipart: imei, file; mp3 or wav under 512 KB; models that play one)",
    form: z.object({
      imei,
      file: z.file().mime(["audio/mpeg", "audio/wav"]).max(MAX_RINGTONE_BYTES - 1),
    }),
    handler: async ({ c }) => {
      const form = await c.req.formData();
      const parsed = imei.safeParse(form.get("imei"));
      const file = form.get("file");
      if (!parsed.success) {
        throw badField("imei", "validation.imeiForm");
      }
      if (!(file instanceof File)) {
        throw badField("file", "validation.required");
      }
      return s.deviceFiles.uploadRingtone(c.var.session, parsed.data, file);
    },
  });
}

/** Model aliases (per user, /modelNameAlias). */
function registerModelAliasRoutes({ api, s, tag }: DeviceRouteKit) {
  api.add({
    method: "get",
    path: "/v3/new/newDevice/getModelAlias",
    need: "read",
    tag,
    summary: "Models with the caller's aliases",
    handler: ({ c }) => s.deviceOps.modelAliases(c.var.session),
  });
  api.add({
    method: "post",
    path: "/v3/new/newDevice/setModelAlias",
    need: "self",
    tag,
    summary: "Set the caller's model aliases (an empty alias removes it)",
    body: aliasBody,
    handler: ({ body, c }) => s.deviceOps.setModelAliases(c.var.session, body.aliases),
  });
}

const xlsxFile = z.file().mime([XLSX_TYPE]).describe("An .xlsx workbook (first sheet)");

const importMeta = z.object({
  userId: accountId,
  mcType: z.string().trim().min(1).max(40),
  activationMode: z.enum(["auto", "permission"]).optional(),
});

/** The translated refusal of one install image. */
const imageReason = (c: Context<AppEnv>, error: string, imei: string | null) =>
  c.var.t(`errors.${error}`, { limit: 9, types: "JPG, PNG", imei: imei ?? "" });

/** Adds the translated refusal of a per-device result. */
const reasonOf =
  (c: Context<AppEnv>) => <T extends { imei: string; error: string | null }>(r: T) => ({
    ...r,
    reason: r.error ? c.var.t(`errors.${r.error}`, { imei: r.imei }) : "",
  });

/** An illegal-parameter refusal for a form field, with its translated reason. */
const badField = (field: string, reasonKey: string) =>
  new BizError("illegalParameter", { field, reasonKey }, { field });

async function fileBytes(form: FormData): Promise<Uint8Array> {
  const file = form.get("file");
  if (!(file instanceof File)) {
    throw badField("file", "validation.required");
  }
  return new Uint8Array(await file.arrayBuffer());
}

function xlsx(bytes: Uint8Array<ArrayBuffer>, name: string): Response {
  return new Response(bytes, {
    headers: {
      "content-type": XLSX_TYPE,
      "content-disposition": `attachment; filename="${name}"`,
    },
  });
}
