/**
 * CRC-ITU as used by GT06 frames: CRC-16/X-25 (reflected poly 0x1021 → 0x8408,
 * init 0xFFFF, final XOR 0xFFFF). Check value for "123456789" is 0x906E.
 */

const TABLE = buildTable();

function buildTable(): Uint16Array {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let bit = 0; bit < 8; bit++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
    table[n] = c;
  }
  return table;
}

export function crc16X25(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ TABLE[(crc ^ bytes[i]) & 0xff];
  return (crc ^ 0xffff) & 0xffff;
}
