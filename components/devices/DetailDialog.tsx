import type { TFunction } from "i18next";
import { useEffect, useRef, useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { AlertsTab, BasicTab, CustomerTab } from "./InfoTabs.tsx";
import { SensorsTab } from "./SensorsTab.tsx";
import { AddressesTab } from "./AddressesTab.tsx";
import type { DeviceDetailData } from "./types.ts";
import { TabButtons } from "../ui/TabButtons.tsx";
import { CameraNicknames } from "../video/CameraNicknames.tsx";
import { findModel } from "../../modules/devices/models.ts";

const TABS = ["basic", "customer", "alerts", "sensors", "addresses", "cameras"] as const;
type Tab = typeof TABS[number];
/** Cameras (JT/T 1078 video) only for models that speak JT/T 808. */
const tabsOf = (mcType: string | undefined) =>
  findModel(mcType ?? "")?.protocol === "jt808" ? TABS : TABS.filter((t) => t !== "cameras");

interface Props {
  t: TFunction;
  imei: string;
  canEdit: boolean;
  canBindApp: boolean;
  modelName: (mcType: string) => string;
  onClose: () => void;
  /** Called after a save so the list shows the new values. */
  onChanged: () => void;
}

/** Device details with the four tabs of spec §2; each tab saves on its own. */
export function DetailDialog(
  { t, imei, canEdit, canBindApp, modelName, onClose, onChanged }: Props,
) {
  const [tab, setTab] = useState<Tab>("basic");
  const shownTab = useRef(tab);
  shownTab.current = tab;
  const [error, setError] = useState("");
  // rev counts the loads that restart the shown tab: after its own save it starts from the stored
  // values. A save that ends after the user moved to another tab leaves that tab (and what they
  // typed there) alone; tabs read `data` when they open.
  const [loaded, setLoaded] = useState<{ data: DeviceDetailData; rev: number } | null>(null);
  const load = (savedBy?: Tab) => {
    api<DeviceDetailData>("/v3/new/newEquipment/getDeviceDetail", { imei }).then(
      (data) =>
        setLoaded((x) => ({
          data,
          rev: (x?.rev ?? 0) + (!x || savedBy === shownTab.current ? 1 : 0),
        })),
      (e) => setError((e as Error).message),
    );
  };
  useEffect(() => load(), [imei]);
  const data = loaded?.data;
  const saved = () => {
    load(tab);
    onChanged();
  };
  const props = { t, readOnly: !canEdit, onSaved: saved };
  return (
    <Modal
      title={t("devices.detail.title", { name: data?.basic.deviceName ?? imei })}
      onClose={onClose}
      closeLabel={t("devices.detail.close")}
      width={860}
    >
      <div class="tabs" role="tablist">
        <TabButtons
          tabs={tabsOf(data?.basic.mcType)}
          active={tab}
          onSelect={setTab}
          label={(k) => t(`devices.tabs.${k}`)}
          idPrefix="tab-"
          tabClass="tab"
        />
      </div>
      {error && <div class="form-error" role="alert">{error}</div>}
      {!data && !error && <div class="table-loading">{t("devices.loading")}</div>}
      {data && (
        <div key={loaded!.rev} class="tab-panel" role="tabpanel">
          {tab === "basic" && (
            <BasicTab
              {...props}
              detail={data}
              canBindApp={canBindApp}
              modelName={data.basic.mcTypeAlias ?? modelName(data.basic.mcType)}
            />
          )}
          {tab === "customer" && <CustomerTab {...props} detail={data} />}
          {tab === "alerts" && <AlertsTab {...props} detail={data} />}
          {tab === "sensors" && <SensorsTab {...props} detail={data} />}
          {tab === "addresses" && <AddressesTab t={t} imei={imei} readOnly={!canEdit} />}
          {tab === "cameras" && <CameraNicknames t={t} imei={imei} readOnly={!canEdit} />}
        </div>
      )}
    </Modal>
  );
}
