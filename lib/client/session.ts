/** Browser actions of the shell shared by the top bar and the phone navigation drawer. */
import { api } from "./api.ts";

/** Switches the console language (kept in the locale cookie) and reloads the page in it. */
export async function switchLanguage(next: string) {
  await api("/v3/new/tools/locale", { lang: next });
  location.reload();
}

/** Ends the session; the login page follows even when the call fails (offline, expired). */
export async function logout() {
  try {
    await api("/v3/new/account/logout", {});
  } finally {
    localStorage.removeItem("tp_user");
    location.href = "/login";
  }
}
