/** Release notes shown once per release in a pop-up and on /releaseNotes; texts live in locales (release.items.*). */
export const RELEASES = [
  {
    version: "1.0.0",
    date: "2026-11-21",
    items: ["accounts", "whiteLabel", "languages", "security"],
  },
] as const;

export const CURRENT_RELEASE = RELEASES[0].version;
