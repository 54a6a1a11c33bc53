/**
 * State of one /devices page (islands/devices/DeviceManager.tsx), shared by its parts as
 * signals; created per island instance (never module-global).
 */
import { type Signal, signal } from "@preact/signals";
import type { TFunction } from "i18next";
import { api } from "../../lib/client/api.ts";
import { FIRST_PAGE, type PageState } from "../ui/Pagination.tsx";
import { toast } from "../ui/Toast.tsx";
import {
  type DeviceRow,
  EMPTY_FILTERS,
  type Filters,
  type Me,
  type ModelInfo,
  type SelectedAccount,
} from "./types.ts";

export const EQ = "/v3/new/newEquipment";

/** Dialogs that act on the ticked devices. */
export type PickDialog =
  | "enable"
  | "disable"
  | "setGroup"
  | "batchEdit"
  | "transfer"
  | "userExpiry"
  | "platformExpiry"
  | "renew";
export type Dialog =
  | { kind: "detail" | "command"; imei: string }
  | { kind: "import" | "groups" | "images" }
  | { kind: PickDialog };

export interface DeviceManagerState {
  t: TFunction;
  me: Me;
  selected: Signal<SelectedAccount>;
  filters: Signal<Filters>;
  advanced: Signal<boolean>;
  page: Signal<PageState>;
  /** Bumped to load the table, statistics and groups again after a change. */
  reloads: Signal<number>;
  /** Ticked devices by IMEI (kept across pages until the query changes). */
  checked: Signal<Record<string, DeviceRow>>;
  dialog: Signal<Dialog | null>;
  models: Signal<ModelInfo[]>;
}

export function createDeviceManagerState(
  t: TFunction,
  me: Me,
  initial: SelectedAccount,
): DeviceManagerState {
  return {
    t,
    me,
    selected: signal(initial),
    filters: signal(EMPTY_FILTERS),
    advanced: signal(false),
    page: signal(FIRST_PAGE),
    reloads: signal(0),
    checked: signal({}),
    dialog: signal<Dialog | null>(null),
    models: signal([]),
  };
}

export const fail = (s: DeviceManagerState) => (e: unknown) =>
  toast((e as Error).message || s.t("ui.requestError"), "error");

export const picked = (s: DeviceManagerState) => Object.values(s.checked.value);

export const changed = (s: DeviceManagerState) => s.reloads.value++;

/** A dialog finished with the ticked devices: close it, untick, reload. */
export function done(s: DeviceManagerState) {
  s.dialog.value = null;
  s.checked.value = {};
  changed(s);
}

export const setFilters = (
  s: DeviceManagerState,
  patch: Partial<Filters>,
) => (s.filters.value = { ...s.filters.value, ...patch });

/** Opens a dialog that needs ticked devices, or says to tick some. */
export function needPick(s: DeviceManagerState, kind: PickDialog) {
  if (picked(s).length) s.dialog.value = { kind };
  else toast(s.t("devices.actions.needSelection"), "info");
}

/** A change applied to the ticked devices at once (no dialog). */
export async function bulk(s: DeviceManagerState, path: string, extra: Record<string, unknown>) {
  const rows = picked(s);
  if (!rows.length) return toast(s.t("devices.actions.needSelection"), "info");
  try {
    await api(`${EQ}/${path}`, { imeis: rows.map((r) => r.imei), ...extra });
    toast(s.t("devices.actions.done"));
    done(s);
  } catch (e) {
    fail(s)(e);
  }
}

export async function follow(s: DeviceManagerState, r: DeviceRow) {
  try {
    await api(`${EQ}/follow`, { imeis: [r.imei], follow: !r.followed });
    changed(s);
  } catch (e) {
    fail(s)(e);
  }
}
