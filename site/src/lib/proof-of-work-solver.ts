// Solves the server's proof-of-work challenges (docs/decisions/016-proof-of-work.md): find a
// decimal nonce such that SHA-256(signature + nonce) starts with `difficulty` zero bits, where
// the signature is the challenge token's last part. The signature (43 characters) and a nonce
// fit one SHA-256 block, so each try is a single compression; a plain synchronous SHA-256 does
// this several times faster than crypto.subtle, whose every digest is a promise. The work runs
// in slices with a pause between them, so the page keeps responding while it solves. It is loaded
// only when a server asks for work (lib/http.ts), so no page carries it up front.

import type { Challenge } from './proof-of-work';

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const [H0, H1, H2, H3, H4, H5, H6, H7] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19].map((word) => word | 0) as [number, number, number, number, number, number, number, number];
const SLICE = 20_000;
const MAX_SINGLE_BLOCK = 55;

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/**
 * Leading zero bits of SHA-256 of one padded block (the first two words of the digest are enough
 * for any difficulty the server sets). Written with plain locals: this loop is the whole cost.
 */
function zeroBitsOfBlock(w: Uint32Array): number {
  for (let i = 16; i < 64; i += 1) {
    const x = w[i - 15]!;
    const y = w[i - 2]!;
    w[i] = (w[i - 16]! + (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) + w[i - 7]! + (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10))) | 0;
  }
  let a = H0;
  let b = H1;
  let c = H2;
  let d = H3;
  let e = H4;
  let f = H5;
  let g = H6;
  let h = H7;
  for (let i = 0; i < 64; i += 1) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  const first = (H0 + a) | 0;
  return first === 0 ? 32 + Math.clz32((H1 + b) | 0) : Math.clz32(first);
}

/** Tries nonces from `start`, `count` of them; returns the first that does the work, or -1. */
function search(prefix: string, difficulty: number, start: number, count: number): number {
  const bytes = new Uint8Array(64);
  const w = new Uint32Array(64);
  for (let i = 0; i < prefix.length; i += 1) bytes[i] = prefix.charCodeAt(i);
  for (let nonce = start; nonce < start + count; nonce += 1) {
    const digits = String(nonce);
    const length = prefix.length + digits.length;
    if (length > MAX_SINGLE_BLOCK) return -1;
    for (let i = 0; i < digits.length; i += 1) bytes[prefix.length + i] = digits.charCodeAt(i);
    bytes[length] = 0x80;
    bytes.fill(0, length + 1, 62);
    const bits = length * 8;
    bytes[62] = bits >>> 8;
    bytes[63] = bits & 0xff;
    for (let i = 0; i < 16; i += 1) w[i] = (bytes[i * 4]! << 24) | (bytes[i * 4 + 1]! << 16) | (bytes[i * 4 + 2]! << 8) | bytes[i * 4 + 3]!;
    if (zeroBitsOfBlock(w) >= difficulty) return nonce;
  }
  return -1;
}

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The solution to send back as `verifyToken`: the challenge token and the nonce found. */
export async function solveChallenge(challenge: Challenge): Promise<string> {
  const prefix = challenge.token.split('.')[1] ?? '';
  for (let start = 0; ; start += SLICE) {
    const nonce = search(prefix, challenge.difficulty, start, SLICE);
    if (nonce >= 0) return `${challenge.token}.${nonce}`;
    if (prefix.length + String(start + SLICE).length > MAX_SINGLE_BLOCK) throw new Error('No solution found');
    await pause();
  }
}
