/**
 * Release notes, newest first: the pop-up after login shows the first once per release, and
 * /releaseNotes lists them all. Texts live in locales (release.items.*).
 */
export const RELEASES = [
  {
    version: "1.2.0",
    date: "2026-11-26",
    items: [
      "hardening",
      "phoneLayout",
      "streetAddresses",
      "reports",
      "reportExports",
      "wallet",
      "credits",
      "help",
      "announcements",
    ],
  },
  {
    version: "1.1.0",
    date: "2026-11-26",
    items: [
      "devices",
      "monitor",
      "addresses",
      "geofences",
      "alerts",
      "commands",
      "securityRules",
    ],
  },
  {
    version: "1.0.0",
    date: "2026-11-21",
    items: ["accounts", "whiteLabel", "languages", "security"],
  },
] as const;

export const CURRENT_RELEASE = RELEASES[0].version;
