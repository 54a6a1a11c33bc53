import { useState } from "react";
import { api, ApiError, refusedField } from "../../lib/client/api.ts";
import type { translator } from "../../lib/i18n/i18n.ts";
import {
  IMPORTANCE,
  type Importance,
  MAX_BODY,
  MAX_TITLE,
} from "../../modules/announcements/model.ts";
import { isoOf, localInput } from "./time.ts";

type Translate = ReturnType<typeof translator>;

const blank = () => {
  const now = new Date();
  return {
    title: "",
    body: "",
    importance: "normal" as Importance,
    start: localInput(now),
    end: localInput(new Date(now.getTime() + 7 * 86_400_000)),
  };
};

/** The poster's form: title, message (≤ 2000), period and importance. */
export function AnnouncementForm({ t, onPosted, fail }: {
  t: Translate;
  onPosted: () => void;
  fail: (e: unknown) => void;
}) {
  const [v, setV] = useState(blank);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof v, value: string) => setV({ ...v, [k]: value });

  const submit = async (e: Event) => {
    e.preventDefault();
    setErrors({});
    setBusy(true);
    try {
      await api("/v3/new/announcement/add", {
        title: v.title,
        body: v.body,
        importance: v.importance,
        startTime: isoOf(v.start),
        endTime: isoOf(v.end),
      });
      setV(blank());
      onPosted();
    } catch (err) {
      const field = refusedField(err);
      const at = field ?? (err instanceof ApiError && err.code !== 0 ? "end" : null);
      if (at && err instanceof ApiError) {
        setErrors({ [at === "endTime" ? "end" : at]: err.message });
      } else fail(err);
    } finally {
      setBusy(false);
    }
  };
  const err = (k: string) => errors[k] && <span class="field-error" role="alert">{errors[k]}</span>;

  return (
    <form class="ann-form" onSubmit={submit}>
      <h2>{t("help.announcements.post")}</h2>
      <label class={`field${errors.title ? " has-error" : ""}`}>
        <span class="field-label">
          <i class="req">*</i>
          {t("help.announcements.docTitle")}
        </span>
        <input
          name="title"
          required
          maxLength={MAX_TITLE}
          value={v.title}
          onInput={(e) => set("title", e.currentTarget.value)}
        />
        {err("title")}
      </label>
      <label class={`field${errors.body ? " has-error" : ""}`}>
        <span class="field-label">
          <i class="req">*</i>
          {t("help.announcements.body")}
        </span>
        <textarea
          name="body"
          required
          rows={4}
          maxLength={MAX_BODY}
          value={v.body}
          onInput={(e) => set("body", e.currentTarget.value)}
        />
        <span class="field-hint ann-count">
          {t("help.announcements.bodyCount", { count: v.body.length, max: MAX_BODY })}
        </span>
        {err("body")}
      </label>
      <div class="ann-form-row">
        <label class="field">
          <span class="field-label">{t("help.announcements.start")}</span>
          <input
            type="datetime-local"
            name="start"
            required
            value={v.start}
            onInput={(e) => set("start", e.currentTarget.value)}
          />
          {err("startTime")}
        </label>
        <label class={`field${errors.end ? " has-error" : ""}`}>
          <span class="field-label">{t("help.announcements.end")}</span>
          <input
            type="datetime-local"
            name="end"
            required
            value={v.end}
            onInput={(e) => set("end", e.currentTarget.value)}
          />
          {err("end")}
        </label>
        <label class="field">
          <span class="field-label">{t("help.announcements.importance")}</span>
          <select
            name="importance"
            value={v.importance}
            onChange={(e) => set("importance", e.currentTarget.value)}
          >
            {IMPORTANCE.map((i) => (
              <option key={i} value={i}>{t(`help.announcements.importanceLevels.${i}`)}</option>
            ))}
          </select>
        </label>
      </div>
      <div class="ann-form-actions">
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {t("help.announcements.submit")}
        </button>
      </div>
    </form>
  );
}
