import { useState } from "react";
import { DevicePicker } from "../commands/DevicePicker.tsx";
import type { AccountRef } from "../accounts/types.ts";
import { Modal } from "../ui/Modal.tsx";
import { EXPORT_ADVISED_ABOVE_DEVICES, REPORT_MAX_DEVICES } from "../../modules/reports/model.ts";
import type { ReportState } from "./report_state.ts";
import { nameDevices } from "./report_actions.ts";

/** Chips shown for the chosen devices; the rest are counted. */
const CHIPS = 4;

/**
 * The report's devices: chips of the chosen ones and a dialog picking them from the caller's
 * account tree (or pasted IMEIs), at most 200 (spec §5); above 50 it advises an export.
 */
export function DeviceField({ s, root }: { s: ReportState; root: AccountRef }) {
  const { t } = s;
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<string[]>([]);
  const imeis = s.imeis.value;
  const names = s.names.value;
  const remove = (imei: string) => (s.imeis.value = imeis.filter((i) => i !== imei));
  return (
    <div class="field rp-devices">
      <span class="field-label">{t("reports.form.devices")}</span>
      <div class="rp-chips" data-testid="report-devices">
        {imeis.slice(0, CHIPS).map((i) => (
          <span class="rp-chip" key={i} title={i}>
            {names[i] || i}
            <button
              type="button"
              aria-label={t("reports.form.removeDevice", { name: names[i] || i })}
              onClick={() => remove(i)}
            >
              ×
            </button>
          </span>
        ))}
        {imeis.length > CHIPS && (
          <span class="rp-chip more">
            {t("reports.form.moreDevices", { count: imeis.length - CHIPS })}
          </span>
        )}
        <button
          type="button"
          class="btn rp-pick"
          id="report-pick-devices"
          onClick={() => {
            setDraft(imeis);
            setOpen(true);
          }}
        >
          {imeis.length ? t("reports.form.changeDevices") : t("reports.form.chooseDevices")}
        </button>
      </div>
      {imeis.length > EXPORT_ADVISED_ABOVE_DEVICES && (
        <span class="field-hint rp-advice">
          {t("reports.form.exportAdvised", { count: EXPORT_ADVISED_ABOVE_DEVICES })}
        </span>
      )}
      {open && (
        <Modal
          title={t("reports.form.chooseDevices")}
          closeLabel={t("ui.close")}
          width={880}
          onClose={() => setOpen(false)}
          footer={
            <>
              <button type="button" class="btn" onClick={() => setOpen(false)}>
                {t("ui.cancel")}
              </button>
              <button
                type="button"
                class="btn btn-primary"
                id="report-devices-ok"
                onClick={() => {
                  s.imeis.value = draft;
                  setOpen(false);
                  void nameDevices(s, draft);
                }}
              >
                {t("reports.form.useDevices", { count: draft.length })}
              </button>
            </>
          }
        >
          <DevicePicker
            t={t}
            root={root}
            selected={draft}
            onChange={setDraft}
            max={REPORT_MAX_DEVICES}
          />
        </Modal>
      )}
    </div>
  );
}
