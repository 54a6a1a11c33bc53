/** The geofence editor's side panel: kind tabs, group filter, search and the zone list. */
import { PagerFor } from "../ui/Pagination.tsx";
import { TabButtons } from "../ui/TabButtons.tsx";
import type { ZoneRow } from "./ZoneForm.tsx";
import { type EditorState, type Group, KINDS, reshape, search } from "./editor_state.ts";

export function ZoneSide({ s }: { s: EditorState }) {
  const { t } = s, data = s.data.value;
  return (
    <aside class="gf-side panel">
      <div class="gf-tabs" role="tablist">
        <TabButtons
          tabs={KINDS}
          active={s.kind.value}
          onSelect={(k) => {
            s.kind.value = k;
            s.page.value = { ...s.page.peek(), pageNum: 1 };
            s.selected.value = null;
          }}
          label={(k) => t(`geofences.kinds.${k}`)}
        />
      </div>
      <GroupFilter s={s} />
      <form
        class="gf-tools"
        onSubmit={(e) => {
          e.preventDefault();
          search(s);
        }}
      >
        <input
          class="input"
          type="search"
          value={s.keyword.value}
          maxLength={50}
          placeholder={t("geofences.search")}
          aria-label={t("geofences.search")}
          onInput={(e) => (s.keyword.value = (e.target as HTMLInputElement).value)}
        />
        <button type="submit" class="btn">{t("geofences.searchButton")}</button>
      </form>
      <div class="gf-count muted">
        {data && t("geofences.count", { n: data.total, max: data.limit })}
      </div>
      <ZoneItems s={s} />
      <PagerFor
        t={t}
        total={data?.total ?? 0}
        page={s.page.value}
        setPage={(p) => (s.page.value = p)}
      />
    </aside>
  );
}

function GroupFilter({ s }: { s: EditorState }) {
  const { t } = s;
  const groupName = (g: Group) => (g.isDefault ? t("geofences.groups.default") : g.name);
  return (
    <div class="gf-tools">
      <select
        class="input"
        value={s.groupId.value}
        aria-label={t("geofences.fields.group")}
        onChange={(e) => {
          s.groupId.value = (e.target as HTMLSelectElement).value;
          s.page.value = { ...s.page.peek(), pageNum: 1 };
        }}
      >
        <option value="">{t("geofences.groups.all")}</option>
        {s.groups.value.map((g) => (
          <option key={g.id} value={g.id}>{groupName(g)} ({g.count})</option>
        ))}
      </select>
      <button type="button" class="btn" onClick={() => (s.dialog.value = "groups")}>
        {t("geofences.groups.manage")}
      </button>
    </div>
  );
}

function ZoneItems({ s }: { s: EditorState }) {
  const { t } = s, data = s.data.value, loading = s.loading.value;
  return (
    <ul class="gf-list" aria-busy={loading}>
      {loading && !data && <li class="table-loading">{t("ui.loading")}</li>}
      {data && !data.list.length && (
        <li class="empty">
          <div>{t(`geofences.empty.${s.kind.value}`)}</div>
          <div class="muted">{t("geofences.emptyHint")}</div>
        </li>
      )}
      {data?.list.map((z) => <ZoneItem key={z.id} s={s} z={z} />)}
    </ul>
  );
}

function ZoneItem({ s, z }: { s: EditorState; z: ZoneRow }) {
  const { t } = s, busy = !!s.drawing.value || !!s.reshaping.value;
  return (
    <li
      class={`gf-item${z.id === s.selected.value ? " selected" : ""}`}
      onClick={() => {
        s.selected.value = z.id;
        s.map.current?.focus(z);
      }}
    >
      <span class="color-dot" style={{ background: z.color }} />
      <div class="gf-item-main">
        <div class="gf-item-name">{z.name}</div>
        <div class="gf-item-sub muted">
          {z.shape.kind === "circle"
            ? t("geofences.circleInfo", { radius: z.shape.radius })
            : t("geofences.polygonInfo", { n: z.shape.points.length - 1 })}
          {z.kind === "fence" && (z.enterAlert || z.exitAlert) && (
            <span class="badge">
              {[
                z.enterAlert && t("geofences.fields.enterAlert"),
                z.exitAlert && t("geofences.fields.exitAlert"),
              ]
                .filter(Boolean).join(" · ")}
            </span>
          )}
          {z.review && (
            <span class={`badge review-${z.review}`}>{t(`geofences.review.${z.review}`)}</span>
          )}
        </div>
      </div>
      <div class="gf-item-actions">
        {!(z.kind === "blackCar" && z.review === "passed") && (
          <>
            <ItemAction label={t("ui.edit")} onClick={() => (s.editing.value = z)} />
            <ItemAction
              label={t("geofences.reshape.shapeLink")}
              class="gf-shape-link"
              disabled={busy}
              onClick={() => reshape(s, z)}
            />
          </>
        )}
        <ItemAction label={t("ui.delete")} class="danger" onClick={() => (s.confirm.value = z)} />
      </div>
    </li>
  );
}

/** A link button in a zone row; it does not also select the row. */
function ItemAction(
  p: { label: string; class?: string; disabled?: boolean; onClick: () => void },
) {
  return (
    <button
      type="button"
      class={`link-btn${p.class ? ` ${p.class}` : ""}`}
      disabled={p.disabled}
      onClick={(e) => {
        e.stopPropagation();
        p.onClick();
      }}
    >
      {p.label}
    </button>
  );
}
