/** Objects / Alerts / Playback tabs of the monitor (spec: /monitorObject, /monitorEvent, /monitorPlayback). */
export function MonitorTabs(
  { active, t }: { active: "object" | "event" | "playback"; t: (k: string) => string },
) {
  const tabs = [
    ["object", "/monitorObject"],
    ["event", "/monitorEvent"],
    ["playback", "/monitorPlayback"],
  ] as const;
  return (
    <nav class="mon-tabs" aria-label={t("monitor.tabs.label")}>
      {tabs.map(([key, href]) => (
        <a key={key} href={href} class={key === active ? "active" : ""}>
          {t(`monitor.tabs.${key}`)}
        </a>
      ))}
    </nav>
  );
}
