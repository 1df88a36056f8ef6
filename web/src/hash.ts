// SHA-256 of a Blob, streamed (a file of any size, never held whole): the key of the privacy
// ledger (ledger.ts). Computed in the worker on the user's machine; the hash never leaves the
// browser (it is stored in this origin's localStorage with the budgets spent on that file).
// Web Crypto has no incremental digest, hence this small implementation (FIPS 180-4), checked
// against crypto.subtle.digest in the e2e test.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

export class Sha256 {
  #h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  #w = new Uint32Array(64);
  #block = new Uint8Array(64);
  #fill = 0;
  #length = 0;  // bytes (a double: exact below 2^53)

  #compress(b: Uint8Array, at: number): void {
    const w = this.#w;
    for (let i = 0; i < 16; i++) {
      const j = at + 4 * i;
      w[i] = (b[j] << 24) | (b[j + 1] << 16) | (b[j + 2] << 8) | b[j + 3];
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15], y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    const h = this.#h;
    let a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
      hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = bb; bb = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }

  update(data: Uint8Array): this {
    this.#length += data.length;
    let i = 0;
    if (this.#fill > 0) {
      const take = Math.min(64 - this.#fill, data.length);
      this.#block.set(data.subarray(0, take), this.#fill);
      this.#fill += take;
      i = take;
      if (this.#fill < 64) return this;
      this.#compress(this.#block, 0);
      this.#fill = 0;
    }
    for (; i + 64 <= data.length; i += 64) this.#compress(data, i);
    if (i < data.length) {
      this.#block.set(data.subarray(i), 0);
      this.#fill = data.length - i;
    }
    return this;
  }

  hex(): string {
    const bits = this.#length * 8;
    const tail = new Uint8Array(((this.#fill + 9 + 63) >> 6) * 64 - this.#fill);
    tail[0] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(tail.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(tail.length - 4, bits >>> 0);
    const length = this.#length;
    this.update(tail);
    this.#length = length;
    return [...this.#h].map((x) => x.toString(16).padStart(8, "0")).join("");
  }
}

/** The SHA-256 of a Blob's bytes, read as a stream; `signal` cancels between chunks. */
export async function sha256OfBlob(blob: Blob, signal?: AbortSignal): Promise<string> {
  const hash = new Sha256();
  const reader = blob.stream().getReader();
  for (;;) {
    if (signal?.aborted) {
      await reader.cancel();
      throw new DOMException("cancelled", "AbortError");
    }
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
  return hash.hex();
}
