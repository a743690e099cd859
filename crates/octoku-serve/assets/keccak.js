// Keccak-256 (the hash of Ethereum, not NIST's SHA3-256) and EIP-55
// checksummed addresses, for the static site, where no server writes
// addresses: the page shows every address as the CLI does. A test runs it
// under node against alloy's checksums.
"use strict";

const OCTOKU_KECCAK = (() => {
  const MASK = (1n << 64n) - 1n;
  const rotl = (v, n) => (n === 0 ? v : ((v << BigInt(n)) | (v >> BigInt(64 - n))) & MASK);

  // The 24 round constants, from the reference's LFSR (x^8 + x^6 + x^5 + x^4 + 1).
  const ROUND = (() => {
    const out = [];
    let r = 1;
    for (let i = 0; i < 24; i++) {
      let c = 0n;
      for (let j = 0; j < 7; j++) {
        r = ((r << 1) ^ ((r >> 7) * 0x71)) % 256;
        if (r & 2) c ^= 1n << BigInt((1 << j) - 1);
      }
      out.push(c);
    }
    return out;
  })();

  /** keccak-f[1600] on 25 lanes (x + 5y), in place. */
  function permute(a) {
    const c = new Array(5);
    for (const rc of ROUND) {
      for (let x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
      for (let x = 0; x < 5; x++) {
        const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
        for (let y = 0; y < 25; y += 5) a[x + y] ^= d;
      }
      // rho and pi together: lane (x, y) moves to (y, 2x + 3y), rotated.
      let x = 1, y = 0, carried = a[1];
      for (let t = 0; t < 24; t++) {
        [x, y] = [y, (2 * x + 3 * y) % 5];
        const i = x + 5 * y, next = a[i];
        a[i] = rotl(carried, (((t + 1) * (t + 2)) / 2) % 64);
        carried = next;
      }
      for (let y = 0; y < 25; y += 5) {
        const row = a.slice(y, y + 5);
        for (let x = 0; x < 5; x++) a[y + x] = row[x] ^ (~row[(x + 1) % 5] & MASK & row[(x + 2) % 5]);
      }
      a[0] ^= rc;
    }
  }

  /** keccak256 of `bytes` (an array of 0-255) as 64 hex digits. */
  function keccak256(bytes) {
    const RATE = 136;
    const padded = bytes.slice();
    padded.push(0x01);
    while (padded.length % RATE) padded.push(0);
    padded[padded.length - 1] |= 0x80;
    const a = new Array(25).fill(0n);
    for (let off = 0; off < padded.length; off += RATE) {
      for (let i = 0; i < RATE / 8; i++) {
        let lane = 0n;
        for (let b = 7; b >= 0; b--) lane = (lane << 8n) | BigInt(padded[off + 8 * i + b]);
        a[i] ^= lane;
      }
      permute(a);
    }
    let hex = "";
    for (let i = 0; i < 4; i++)
      for (let b = 0; b < 8; b++) hex += Number((a[i] >> BigInt(8 * b)) & 0xffn).toString(16).padStart(2, "0");
    return hex;
  }

  /** `address` (any case, 0x and 40 hex digits) in EIP-55 mixed case. */
  function checksum(address) {
    const digits = String(address).replace(/^0x/i, "").toLowerCase();
    if (!/^[0-9a-f]{40}$/.test(digits)) return String(address);
    const hash = keccak256([...digits].map((ch) => ch.charCodeAt(0)));
    return "0x" + [...digits].map((ch, i) => (parseInt(hash[i], 16) >= 8 ? ch.toUpperCase() : ch)).join("");
  }

  return { keccak256, checksum };
})();

if (typeof module === "object" && module.exports) module.exports = OCTOKU_KECCAK;
