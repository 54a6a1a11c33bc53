/** The /devices page's dialogs: one open at a time (DeviceManagerState.dialog). */
import type { AccountRef } from "../accounts/types.ts";
import { DetailDialog } from "./DetailDialog.tsx";
import { GroupsDialog, SetGroupDialog } from "./GroupsDialog.tsx";
import { BatchEditDialog, ImportDialog } from "./SheetDialogs.tsx";
import { ExpiryDialog, TransferDialog } from "./ActionDialogs.tsx";
import { ImagesDialog } from "./ImagesDialog.tsx";
import { RenewDialog } from "./RenewDialog.tsx";
import { EnableDialog } from "./BulkDialog.tsx";
import { SendCommandDialog } from "../commands/SendCommandDialog.tsx";
import type { GroupRow } from "./types.ts";
import { changed, type DeviceManagerState, done, picked } from "./manager_state.ts";

export function ManagerDialogs(
  { s, root, groups, modelName }: {
    s: DeviceManagerState;
    root: AccountRef;
    groups: GroupRow[];
    modelName: (mcType: string) => string;
  },
) {
  const { t, me } = s, dialog = s.dialog.value;
  if (!dialog) return null;
  const close = () => (s.dialog.value = null);
  const onChanged = () => changed(s);
  switch (dialog.kind) {
    case "detail":
      return (
        <DetailDialog
          t={t}
          imei={dialog.imei}
          canEdit={me.canEdit}
          canBindApp={me.canBindApp}
          modelName={modelName}
          onClose={close}
          onChanged={onChanged}
        />
      );
    case "command":
      return <SendCommandDialog t={t} imei={dialog.imei} onClose={close} />;
    case "import":
      return (
        <ImportDialog
          t={t}
          account={s.selected.value}
          models={s.models.value}
          modelName={modelName}
          onClose={close}
          onDone={onChanged}
        />
      );
    case "groups":
      return (
        <GroupsDialog
          t={t}
          account={s.selected.value}
          groups={groups}
          canEdit={me.canEdit}
          onClose={close}
          onChanged={onChanged}
        />
      );
    case "images":
      return <ImagesDialog t={t} onClose={close} onDone={onChanged} />;
    default:
      return <PickedDialog s={s} root={root} />;
  }
}

/** Dialogs acting on the ticked devices. */
function PickedDialog({ s, root }: { s: DeviceManagerState; root: AccountRef }) {
  const { t } = s, kind = s.dialog.value!.kind, rows = picked(s), imeis = rows.map((r) => r.imei);
  const close = () => (s.dialog.value = null);
  const onChanged = () => changed(s), onDone = () => done(s);
  switch (kind) {
    // Bulk changes ask first and then report per device; the dialog stays for the report.
    case "enable":
    case "disable":
      return (
        <EnableDialog
          t={t}
          rows={rows}
          enabled={kind === "enable"}
          onClose={close}
          onDone={onChanged}
        />
      );
    case "setGroup":
      return <SetGroupDialog t={t} rows={rows} onClose={close} onDone={onChanged} />;
    case "batchEdit":
      return <BatchEditDialog t={t} imeis={imeis} onClose={close} onDone={onChanged} />;
    case "transfer":
      return <TransferDialog t={t} root={root} imeis={imeis} onClose={close} onDone={onDone} />;
    case "userExpiry":
    case "platformExpiry":
      return (
        <ExpiryDialog
          t={t}
          kind={kind === "userExpiry" ? "user" : "platform"}
          imeis={imeis}
          onClose={close}
          onDone={onDone}
        />
      );
    case "renew":
      return <RenewDialog t={t} imeis={imeis} onClose={close} onDone={onChanged} />;
    default:
      return null;
  }
}
