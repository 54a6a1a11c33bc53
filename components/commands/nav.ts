/** The command area's settings pages (spec §2), in side-navigation order. */
export const COMMAND_NAV = [
  ["/batchCommand", "batchCommand"],
  ["/commandStatus", "commandStatus"],
  ["/commandTemplate", "commandTemplate"],
  ["/workingModeTemplate", "workingModeTemplate"],
  ["/batchWorkingMode", "batchWorkingMode"],
  ["/workingModeStatus", "workingModeStatus"],
] as const;

export const COMMAND_PAGES = COMMAND_NAV.map(([href]) => href);
