import type { TFunction } from "i18next";
import { Modal } from "../ui/Modal.tsx";

/** A yes/no question over the page. */
export function Confirm({ t, title, text, onCancel, onConfirm }: {
  t: TFunction;
  title: string;
  text: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal
      title={title}
      closeLabel={t("ui.close")}
      onClose={onCancel}
      footer={
        <>
          <button type="button" class="btn" onClick={onCancel}>{t("ui.cancel")}</button>
          <button type="button" class="btn btn-primary" onClick={onConfirm}>
            {t("ui.confirm")}
          </button>
        </>
      }
    >
      <p>{text}</p>
    </Modal>
  );
}
