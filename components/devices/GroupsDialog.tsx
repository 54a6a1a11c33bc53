import type { TFunction } from "i18next";
import { useState } from "react";
import { api } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import { useLatest } from "../accounts/hooks.ts";
import { useAction } from "./useAction.ts";
import type { DeviceRow, GroupRow, SelectedAccount } from "./types.ts";
import { ActionModal } from "./ActionDialogs.tsx";
import { BulkLines, type Outcome, pending } from "./BulkDialog.tsx";

const EQ = "/v3/new/newEquipment";

interface Props {
  t: TFunction;
  account: SelectedAccount;
  groups: GroupRow[];
  canEdit: boolean;
  onClose: () => void;
  onChanged: () => void;
}

/** Groups of one account: add, rename, pin and delete (spec §5 group rules, server-checked). */
export function GroupsDialog({ t, account, groups, canEdit, onClose, onChanged }: Props) {
  const [name, setName] = useState("");
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const { busy, error, setError, run: act } = useAction();
  const run = async (action: () => Promise<unknown>) => {
    const ok = await act(action);
    if (ok) onChanged();
    return ok;
  };
  const check = (v: string) =>
    !v.trim()
      ? t("validation.required")
      : v.trim().length > 20
      ? t("validation.tooLong", { max: 20 })
      : "";
  const add = async () => {
    const bad = check(name);
    if (bad) return setError(`${t("devices.groups.name")}: ${bad}`);
    if (await run(() => api(`${EQ}/addGroup`, { userId: account.id, name: name.trim() }))) {
      setName("");
    }
  };
  return (
    <Modal
      title={t("devices.groups.title", { account: account.nickName })}
      onClose={onClose}
      closeLabel={t("devices.detail.close")}
      width={560}
    >
      {canEdit && (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <input
            id="group-name"
            class="input"
            maxLength={20}
            placeholder={t("devices.groups.nameRule")}
            aria-label={t("devices.groups.name")}
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
          <button type="submit" id="group-add" class="btn btn-primary" disabled={busy}>
            + {t("devices.groups.add")}
          </button>
        </form>
      )}
      {error && <div class="form-error" role="alert">{error}</div>}
      <ul class="group-list">
        {groups.map((g) => (
          <li key={g.id} data-group={g.name ?? "default"}>
            {editing?.id === g.id
              ? (
                <form
                  class="inline-form grow"
                  onSubmit={async (e) => {
                    e.preventDefault();
                    const bad = check(editing.name);
                    if (bad) return setError(`${t("devices.groups.name")}: ${bad}`);
                    const ok = await run(() =>
                      api(`${EQ}/updateGroupName`, {
                        userId: account.id,
                        groupId: g.id,
                        name: editing.name.trim(),
                      })
                    );
                    if (ok) setEditing(null);
                  }}
                >
                  <input
                    class="input"
                    maxLength={20}
                    aria-label={t("devices.groups.name")}
                    value={editing.name}
                    onInput={(e) =>
                      setEditing({ id: g.id, name: (e.target as HTMLInputElement).value })}
                  />
                  <button type="submit" class="btn btn-primary">{t("devices.detail.save")}</button>
                  <button type="button" class="btn" onClick={() => setEditing(null)}>
                    {t("devices.detail.cancel")}
                  </button>
                </form>
              )
              : (
                <>
                  <span class="group-name">
                    {g.top && <span aria-hidden="true">📌</span>}
                    {g.name ?? t("devices.groups.default")}
                  </span>
                  <span class="muted">{t("devices.groups.count", { count: g.count })}</span>
                  {canEdit && !g.isDefault && (
                    <span class="row-actions">
                      <button
                        type="button"
                        class="link-btn"
                        onClick={() =>
                          run(() =>
                            api(`${EQ}/topUserGroup`, { userId: account.id, groupId: g.id })
                          )}
                      >
                        {t(g.top ? "devices.groups.untop" : "devices.groups.top")}
                      </button>
                      <button
                        type="button"
                        class="link-btn"
                        onClick={() => setEditing({ id: g.id, name: g.name ?? "" })}
                      >
                        {t("devices.groups.rename")}
                      </button>
                      <button
                        type="button"
                        class="link-btn danger"
                        onClick={() => {
                          if (!confirm(t("devices.groups.confirmDelete", { name: g.name }))) return;
                          run(() =>
                            api(
                              `${EQ}/deleteGroup?userId=${account.id}&groupId=${g.id}`,
                              undefined,
                              { method: "DELETE" },
                            )
                          ).then((ok) => ok && toast(t("devices.actions.done")));
                        }}
                      >
                        {t("devices.groups.delete")}
                      </button>
                    </span>
                  )}
                </>
              )}
          </li>
        ))}
      </ul>
    </Modal>
  );
}

interface SetProps {
  t: TFunction;
  rows: DeviceRow[];
  onClose: () => void;
  onDone: () => void;
}

/**
 * Moves the selected devices (all of one account) into one of that account's groups: names
 * the devices before, and after it shows which ones moved and why the others did not.
 */
export function SetGroupDialog({ t, rows, onClose, onDone }: SetProps) {
  const [groupId, setGroupId] = useState("0");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const { busy, error, setError, run } = useAction();
  const owners = [...new Set(rows.map((r) => r.userId))];
  const { data: groups } = useLatest(
    () =>
      owners.length === 1
        ? api<GroupRow[]>(`${EQ}/getGroupList`, { userId: owners[0] })
        : Promise.resolve([]),
    [owners.join()],
    (e) => setError((e as Error).message),
  );
  const submit = () =>
    run(async () => {
      const r = await api<Outcome>(`${EQ}/setGroup`, { imeis: rows.map((r) => r.imei), groupId });
      setOutcome(r);
      toast(t("devices.bulk.moved", { count: r.done }));
      onDone();
    });
  return (
    <ActionModal
      t={t}
      title={t("devices.groups.setTitle", { count: rows.length })}
      submitId="set-group-submit"
      submitLabel={t("devices.groups.set")}
      busy={busy}
      error={error}
      disabled={owners.length !== 1}
      finished={!!outcome}
      width={640}
      onClose={onClose}
      onSubmit={submit}
    >
      {owners.length > 1 && (
        <div class="form-error" role="alert">{t("errors.groupAccountMismatch")}</div>
      )}
      {outcome ? <BulkLines t={t} lines={outcome.results} /> : (
        <>
          {owners.length === 1 && (
            <label class="field">
              <span class="field-label">{t("devices.groups.choose")}</span>
              <select
                id="set-group-id"
                value={groupId}
                onChange={(e) => setGroupId((e.target as HTMLSelectElement).value)}
              >
                {(groups ?? []).map((g) => (
                  <option key={g.id} value={g.id}>{g.name ?? t("devices.groups.default")}</option>
                ))}
              </select>
            </label>
          )}
          <p>{t("devices.bulk.groupAsk")}</p>
          <BulkLines t={t} lines={rows.map(pending)} />
        </>
      )}
    </ActionModal>
  );
}
