/**
 * Login captcha: a distorted SVG of 4 characters. Each challenge is single use (deleted
 * on the first check, right or wrong) and expires after two minutes.
 */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const TTL_MS = 2 * 60_000;
const key = (id: string) => ["auth", "captcha", id];

export interface Challenge {
  captchaId: string;
  /** SVG markup; the client shows it as a data URL. */
  image: string;
}

function randomInt(max: number): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] % max;
}

export function renderCaptchaSvg(code: string): string {
  const w = 120, h = 40;
  const noise = Array.from({ length: 6 }, () => {
    const [x1, y1, x2, y2] = [randomInt(w), randomInt(h), randomInt(w), randomInt(h)];
    return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="hsl(${
      randomInt(360)
    },50%,55%)" stroke-width="1.5"/>`;
  }).join("");
  const glyphs = [...code].map((ch, i) => {
    const x = 14 + i * 26 + randomInt(6), y = 28 + randomInt(6), rot = randomInt(40) - 20;
    return `<text x="${x}" y="${y}" transform="rotate(${rot} ${x} ${y})" font-family="monospace" font-size="24" font-weight="bold" fill="hsl(${
      randomInt(360)
    },60%,35%)">${ch}</text>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><rect width="100%" height="100%" fill="#f2f5fb"/>${noise}${glyphs}</svg>`;
}

export class CaptchaService {
  constructor(private readonly kv: Deno.Kv, private readonly now = () => Date.now()) {}

  async issue(): Promise<Challenge & { code: string }> {
    const code = Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    const captchaId = crypto.randomUUID();
    await this.kv.set(key(captchaId), { code, expires: this.now() + TTL_MS }, { expireIn: TTL_MS });
    return { captchaId, image: renderCaptchaSvg(code), code };
  }

  /** True only for the right, unexpired code; the challenge is consumed either way. */
  async consume(captchaId: string, code: string): Promise<boolean> {
    const entry = await this.kv.get<{ code: string; expires: number }>(key(captchaId));
    if (!entry.value) return false;
    const del = await this.kv.atomic().check(entry).delete(key(captchaId)).commit();
    if (!del.ok) return false; // someone else used it first
    return entry.value.expires > this.now() &&
      entry.value.code === code.trim().toUpperCase();
  }
}
