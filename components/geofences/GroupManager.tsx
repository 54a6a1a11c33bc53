import { useState } from "react";
import type { TFunction } from "i18next";
import { api, ApiError } from "../../lib/client/api.ts";
import { Modal } from "../ui/Modal.tsx";
import { toast } from "../ui/Toast.tsx";
import type { Group } from "./editor_state.ts";

/** Add, rename, stick on top and delete zone groups (the default group is fixed). */
export function GroupManager(
  { t, groups, onChanged, onClose }: {
    t: TFunction;
    groups: Group[];
    onChanged: () => void;
    onClose: () => void;
  },
) {
  const [name, setName] = useState("");
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const call = async (path: string, body: unknown, done?: string) => {
    try {
      await api(path, body);
      if (done) toast(done);
      onChanged();
      return true;
    } catch (e) {
      toast(e instanceof ApiError ? e.message : t("ui.requestFailed"), "error");
      return false;
    }
  };
  return (
    <Modal title={t("geofences.groups.manage")} closeLabel={t("ui.close")} onClose={onClose}>
      <form
        class="gf-tools"
        onSubmit={async (e) => {
          e.preventDefault();
          if (
            name.trim() &&
            await call("/v3/new/geofence/group/save", { name: name.trim() }, t("ui.saved"))
          ) setName("");
        }}
      >
        <input
          class="input"
          maxLength={20}
          value={name}
          placeholder={t("geofences.groups.newName")}
          aria-label={t("geofences.groups.newName")}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="btn btn-primary" disabled={!name.trim()}>
          {t("geofences.groups.add")}
        </button>
      </form>
      <ul class="gf-groups">
        {groups.map((g) => (
          <li key={g.id}>
            {renaming?.id === g.id
              ? (
                <form
                  class="gf-tools grow"
                  onSubmit={async (e) => {
                    e.preventDefault();
                    if (
                      await call("/v3/new/geofence/group/save", {
                        id: g.id,
                        name: renaming.name.trim(),
                      }, t("ui.saved"))
                    ) setRenaming(null);
                  }}
                >
                  <input
                    class="input"
                    maxLength={20}
                    value={renaming.name}
                    onInput={(e) =>
                      setRenaming({ id: g.id, name: (e.target as HTMLInputElement).value })}
                  />
                  <button type="submit" class="btn btn-primary">{t("ui.save")}</button>
                </form>
              )
              : (
                <span class="grow">
                  {g.top && !g.isDefault && <span class="badge">{t("geofences.groups.top")}</span>}
                  {g.isDefault ? t("geofences.groups.default") : g.name}{" "}
                  <span class="muted">({g.count})</span>
                </span>
              )}
            {!g.isDefault && renaming?.id !== g.id && (
              <span class="gf-item-actions">
                <button
                  type="button"
                  class="link-btn"
                  onClick={() => call("/v3/new/geofence/group/top", { id: g.id, top: !g.top })}
                >
                  {t(g.top ? "geofences.groups.untop" : "geofences.groups.toTop")}
                </button>
                <button
                  type="button"
                  class="link-btn"
                  onClick={() => setRenaming({ id: g.id, name: g.name })}
                >
                  {t("ui.edit")}
                </button>
                <button
                  type="button"
                  class="link-btn danger"
                  onClick={() =>
                    call("/v3/new/geofence/group/delete", { id: g.id }, t("geofences.deleted"))}
                >
                  {t("ui.delete")}
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </Modal>
  );
}
