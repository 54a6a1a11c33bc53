/** The geofence editor's dialogs: zone form, groups, import, delete confirmation, review bar. */
import { api, ApiError } from "../../lib/client/api.ts";
import type { TFunction } from "i18next";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { ZoneForm } from "./ZoneForm.tsx";
import { GroupManager } from "./GroupManager.tsx";
import { ImportDialog } from "./ImportDialog.tsx";
import { type EditorState, load, loadGroups, remove } from "./editor_state.ts";

export function EditorDialogs({ s, isAdmin }: { s: EditorState; isAdmin: boolean }) {
  const { t } = s, editing = s.editing.value, dialog = s.dialog.value, kind = s.kind.value;
  const groups = s.groups.value, selected = s.selected.value;
  const reload = () => {
    load(s);
    loadGroups(s);
  };
  return (
    <>
      {editing && (
        <ZoneForm
          t={t}
          zone={editing}
          kind={kind}
          groups={groups}
          onClose={() => (s.editing.value = null)}
          onSaved={(z) => {
            s.editing.value = null;
            s.selected.value = z.id;
            toast(t("geofences.saved"));
            reload();
          }}
        />
      )}
      {dialog === "groups" && (
        <GroupManager
          t={t}
          groups={groups}
          onChanged={() => loadGroups(s)}
          onClose={() => (s.dialog.value = null)}
        />
      )}
      {dialog === "import" && (
        <ImportDialog
          t={t}
          kind={kind}
          groups={groups}
          onClose={() => (s.dialog.value = null)}
          onDone={reload}
        />
      )}
      <DeleteConfirm s={s} />
      {isAdmin && kind === "blackCar" && selected && (
        <ReviewBar
          t={t}
          id={selected}
          onDone={() => load(s)}
        />
      )}
    </>
  );
}

function DeleteConfirm({ s }: { s: EditorState }) {
  const { t } = s, confirm = s.confirm.value;
  if (!confirm) return null;
  const close = () => (s.confirm.value = null);
  return (
    <Modal
      title={t("geofences.deleteTitle")}
      closeLabel={t("ui.close")}
      onClose={close}
      footer={
        <>
          <button type="button" class="btn" onClick={close}>
            {t("ui.cancel")}
          </button>
          <button type="button" class="btn btn-danger" onClick={() => remove(s, confirm)}>
            {t("ui.delete")}
          </button>
        </>
      }
    >
      <p>{t("geofences.deleteConfirm", { name: confirm.name })}</p>
    </Modal>
  );
}

/** The administrator passes or rejects the selected black-car address. */
function ReviewBar({ t, id, onDone }: { t: TFunction; id: string; onDone: () => void }) {
  const review = async (r: "passed" | "rejected") => {
    try {
      await api("/v3/new/geofence/review", { id, review: r });
      toast(t(`geofences.review.${r}`));
      onDone();
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");
    }
  };
  return (
    <div class="gf-review">
      <span>{t("geofences.reviewPrompt")}</span>
      <button type="button" class="btn btn-primary" onClick={() => review("passed")}>
        {t("geofences.review.pass")}
      </button>
      <button type="button" class="btn btn-danger" onClick={() => review("rejected")}>
        {t("geofences.review.reject")}
      </button>
    </div>
  );
}
