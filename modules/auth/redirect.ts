/**
 * Where to go after login. The target comes from the address bar (`/login?redirect=…`), so
 * anyone can craft it: only a path on our own origin is followed. Checking the string's
 * first characters is not enough — the URL parser drops tabs and line breaks and reads `\`
 * as `/`, so `/\t/evil.example` or `/\evil.example` become `//evil.example`, another host.
 * The target is therefore parsed exactly as the browser will parse it and compared by origin.
 */
export const AFTER_LOGIN = "/mainFrame";

/** `target` as a same-origin path+search+hash, or the console's start page. */
export function safeRedirect(target: string | null | undefined, origin: string): string {
  if (!target) return AFTER_LOGIN;
  let base: URL, url: URL;
  try {
    base = new URL(origin);
    url = new URL(target, base);
  } catch {
    return AFTER_LOGIN;
  }
  if (url.origin !== base.origin) return AFTER_LOGIN;
  const path = url.pathname + url.search + url.hash;
  // "/.//evil.example" parses to the pathname "//evil.example", which on its own is a
  // protocol-relative address of another host.
  if (!path.startsWith("/") || path.startsWith("//")) return AFTER_LOGIN;
  return path;
}
