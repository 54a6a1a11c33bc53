/** JT/T 808 check code: XOR of every byte from the message id through the end of the body. */
export function xorChecksum(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let x = 0;
  for (let i = start; i < end; i++) x ^= bytes[i];
  return x;
}
