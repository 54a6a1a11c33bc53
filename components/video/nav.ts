/**
 * The video section's side navigation (spec business §2 Video: Event, Live, History, Setting).
 * Constants only: shared by the server pages and the shell's section list.
 */
export const VIDEO_NAV = [
  ["/eventVideo", "event"],
  ["/live", "live"],
  ["/historyVideo", "history"],
  ["/settings", "setting"],
] as const;

/** Path prefixes of the section (the top bar marks Video active on them). */
export const VIDEO_SECTION_PATHS = ["/eventVideo", "/live", "/historyVideo", "/settings", "/video"];
