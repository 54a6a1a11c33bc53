/**
 * The chassis number (VIN, ISO 3779) check behind the vehicle form's warning: 17 characters,
 * no I, O or Q, and the North American check digit in position 9. Many markets do not use the
 * check digit, so a failure is a warning the user may override, never a hard refusal.
 */
const VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

export type VinProblem = "length" | "letters" | "checkDigit";

/** Why a chassis number is not a valid VIN, or null when it is (or is empty). */
export function vinProblem(vin: string): VinProblem | null {
  if (vin === "") return null;
  if (vin.length !== 17) return "length";
  if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(vin)) return "letters";
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const ch = vin[i];
    sum += (/\d/.test(ch) ? Number(ch) : VALUES[ch]) * WEIGHTS[i];
  }
  const check = sum % 11 === 10 ? "X" : String(sum % 11);
  return vin[8] === check ? null : "checkDigit";
}
