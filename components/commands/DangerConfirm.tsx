import type { TFunction } from "i18next";
import { Modal } from "../ui/Modal.tsx";
import type { Danger } from "../../modules/commands/model.ts";

/** How many IMEIs the question names before "and N more". */
const NAMED = 10;

/**
 * The question before a dangerous instruction (engine cut, factory reset) is sent: it names
 * the instruction, what it does and the devices it goes to. Nothing is sent on Cancel.
 */
export function DangerConfirm({ t, code, danger, imeis, onCancel, onConfirm }: {
  t: TFunction;
  code: string;
  danger: Danger;
  imeis: readonly string[];
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const command = t(`commands.instructions.${code}`);
  const more = imeis.length - NAMED;
  return (
    <Modal
      title={t("commands.danger.title", { command })}
      closeLabel={t("ui.close")}
      onClose={onCancel}
      footer={
        <>
          <button type="button" class="btn" onClick={onCancel}>{t("ui.cancel")}</button>
          <button
            type="button"
            id="danger-confirm"
            class="btn btn-danger-solid"
            onClick={onConfirm}
          >
            {t("commands.danger.confirm", { command, count: imeis.length })}
          </button>
        </>
      }
    >
      <div class="danger-confirm" role="alert">
        <p class="danger-what">{t(`commands.danger.${danger}`)}</p>
        <p>{t("commands.danger.devices", { command, count: imeis.length })}</p>
        <ul class="danger-devices">
          {imeis.slice(0, NAMED).map((i) => <li key={i} class="mono">{i}</li>)}
          {more > 0 && <li>{t("commands.danger.more", { count: more })}</li>}
        </ul>
      </div>
    </Modal>
  );
}
