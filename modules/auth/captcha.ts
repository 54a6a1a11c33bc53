import type { CaptchaStore } from "./captcha_store.ts";

/**
 * Login captcha: a distorted SVG of 4 characters. Each challenge is single use (deleted
 * on the first check, right or wrong) and expires after two minutes.
 */
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const TTL_MS = 2 * 60_000;

export interface Challenge {
  captchaId: string;
  /** SVG markup; the client shows it as a data URL. */
  image: string;
}

function randomInt(max: number): number {
  return crypto.getRandomValues(new Uint32Array(1))[0] % max;
}

/**
 * Stroke outlines of the alphabet on a 4×6 grid: strokes separated by spaces, each a run of
 * x,y digit pairs. Glyphs are drawn as jittered paths, never as <text>: text nodes would
 * hand the code to any script that reads the SVG markup.
 */
const GLYPHS: Record<string, string> = {
  A: "062046 1434",
  B: "00063645443303 0030414233",
  C: "4130100105163645",
  D: "00063645413000",
  E: "40000646 0333",
  F: "400006 0333",
  G: "41301001051636454323",
  H: "0006 4046 0343",
  J: "1040 3035261605",
  K: "0006 4004 1346",
  L: "000646",
  M: "0600234046",
  N: "06004640",
  P: "06003041423303",
  Q: "103041453616050110 2446",
  R: "06003041423303 2346",
  S: "413010010213334445361605",
  T: "0040 2026",
  U: "000516364540",
  V: "002640",
  W: "0016233640",
  X: "0046 4006",
  Y: "002340 2326",
  Z: "00400646",
  "2": "01103041420646",
  "3": "0110304142334445361605 1333",
  "4": "36300444",
  "5": "400003334445361605",
  "6": "30100105163645443303",
  "7": "004016",
  "8": "1030414233130405163645443313 13020110",
  "9": "43130201103041453616",
};

export function renderCaptchaSvg(code: string): string {
  const w = 120, h = 40;
  const jitter = () => (randomInt(61) - 30) / 100; // ±0.3 grid units
  const noise = Array.from({ length: 6 }, () => {
    const [x1, y1, x2, y2] = [randomInt(w), randomInt(h), randomInt(w), randomInt(h)];
    return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="hsl(${
      randomInt(360)
    },50%,55%)" stroke-width="1.5"/>`;
  }).join("");
  const glyphs = [...code].map((ch, i) => {
    const scale = 4 + randomInt(2) / 2; // 4-4.5 px per grid unit
    const x = 12 + i * 26 + randomInt(5), y = 5 + randomInt(4), rot = randomInt(40) - 20;
    const d = (GLYPHS[ch] ?? "").split(" ").map((stroke) =>
      (stroke.match(/\d\d/g) ?? []).map((pair, j) => {
        const gx = +pair[0] + jitter(), gy = +pair[1] + jitter();
        return `${j ? "L" : "M"}${(gx * scale).toFixed(1)} ${(gy * scale).toFixed(1)}`;
      }).join("")
    ).join("");
    return `<path transform="translate(${x} ${y}) rotate(${rot} ${2 * scale} ${
      3 * scale
    })" d="${d}" fill="none" stroke="hsl(${
      randomInt(360)
    },60%,35%)" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><rect width="100%" height="100%" fill="#f2f5fb"/>${glyphs}${noise}</svg>`;
}

export class CaptchaService {
  constructor(private readonly store: CaptchaStore, private readonly now = () => Date.now()) {}

  async issue(): Promise<Challenge & { code: string }> {
    const code = Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
    const captchaId = crypto.randomUUID();
    await this.store.put(captchaId, { code, expires: this.now() + TTL_MS }, TTL_MS);
    return { captchaId, image: renderCaptchaSvg(code), code };
  }

  /** True only for the right, unexpired code; the challenge is consumed either way. */
  async consume(captchaId: string, code: string): Promise<boolean> {
    const challenge = await this.store.take(captchaId); // null: unknown, or used by another
    if (!challenge) return false;
    return challenge.expires > this.now() && challenge.code === code.trim().toUpperCase();
  }
}
