/**
 * MD5 of a file's bytes, as base64 — the form of the service's `md5_hash` — so a file can
 * be recognised as one already imported before it is sent again. (Web Crypto has no MD5;
 * MD5 is used here only to compare with what the service stores, never for security.)
 */
import { OPENED_FILE_TAIL_BYTES } from '../../../shared/desktop-bridge.js';

const S = [
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4,
  11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];
const K = Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

function block(state: Uint32Array, w: Uint32Array): void {
  let [a, b, c, d] = state;
  for (let i = 0; i < 64; i++) {
    let f: number;
    let g: number;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) % 16;
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) % 16;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) % 16;
    }
    const t = d;
    d = c;
    c = b;
    const x = (a + f + K[i] + w[g]) >>> 0;
    b = (b + ((x << S[i]) | (x >>> (32 - S[i])))) >>> 0;
    a = t;
  }
  state[0] = (state[0] + a) >>> 0;
  state[1] = (state[1] + b) >>> 0;
  state[2] = (state[2] + c) >>> 0;
  state[3] = (state[3] + d) >>> 0;
}

/** MD5 digest of the bytes. */
export function md5(bytes: Uint8Array): Uint8Array {
  const state = Uint32Array.from([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]);
  const w = new Uint32Array(16);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const full = bytes.length - (bytes.length % 64);
  for (let off = 0; off < full; off += 64) {
    for (let j = 0; j < 16; j++) w[j] = view.getUint32(off + j * 4, true);
    block(state, w);
  }
  // Padding: 0x80, zeros, then the length in bits (little-endian 64-bit).
  const rest = bytes.length - full;
  const tail = new Uint8Array(rest < 56 ? 64 : 128);
  tail.set(bytes.subarray(full));
  tail[rest] = 0x80;
  const bits = bytes.length * 8;
  const tv = new DataView(tail.buffer);
  tv.setUint32(tail.length - 8, bits >>> 0, true);
  tv.setUint32(tail.length - 4, Math.floor(bits / 2 ** 32), true);
  for (let off = 0; off < tail.length; off += 64) {
    for (let j = 0; j < 16; j++) w[j] = tv.getUint32(off + j * 4, true);
    block(state, w);
  }
  const out = new Uint8Array(16);
  const ov = new DataView(out.buffer);
  state.forEach((v, i) => ov.setUint32(i * 4, v, true));
  return out;
}

export async function fileMd5Base64(file: Blob): Promise<string> {
  const digest = md5(new Uint8Array(await file.arrayBuffer()));
  let s = '';
  for (const b of digest) s += String.fromCharCode(b);
  return btoa(s);
}

/**
 * For plain-text files: the last line when the file stops in the middle of it (no final
 * line break), as an interrupted download leaves it; null otherwise or for archives. Reads
 * the last OPENED_FILE_TAIL_BYTES, all the desktop app hands over of a file it opened.
 */
export async function cutOffLastLine(file: Blob, name: string): Promise<string | null> {
  if (/\.(zip|gz|tgz)$/i.test(name) || file.size === 0) return null;
  const tail = new Uint8Array(await file.slice(Math.max(0, file.size - OPENED_FILE_TAIL_BYTES)).arrayBuffer());
  if (tail[tail.length - 1] === 0x0a) return null;
  const text = new TextDecoder().decode(tail);
  const last = text.slice(text.lastIndexOf('\n') + 1).trim();
  return last || null;
}
