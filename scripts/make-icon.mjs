// Draws media/icon.png (128×128, RGBA) with no dependency: shapes as distance functions, 4×4 supersampling,
// PNG chunks encoded by hand and compressed with node's zlib. Run: node scripts/make-icon.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const SIZE = 128;
const SS = 4;
const root = join(dirname(new URL(import.meta.url).pathname), '..');

// Distance helpers (negative = inside).
const seg = (px, py, ax, ay, bx, by) => {
  const dx = bx - ax, dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
};
const roundRect = (px, py, x0, y0, x1, y1, r) => {
  const cx = Math.max(x0 + r, Math.min(x1 - r, px));
  const cy = Math.max(y0 + r, Math.min(y1 - r, py));
  const inside = px >= x0 && px <= x1 && py >= y0 && py <= y1;
  const d = Math.hypot(px - cx, py - cy) - r;
  return inside && d < 0 ? d : Math.max(d, inside ? -0.0001 : 0.0001);
};

const BG_TOP = [20, 56, 92];
const BG_BOTTOM = [13, 33, 58];
const FG = [236, 243, 250];
const GREEN = [80, 200, 120];
const RED = [235, 90, 90];

/** The colour of one sample point, or null for transparent. */
function sample(x, y) {
  if (roundRect(x, y, 4, 4, 124, 124, 24) > 0) return null;
  const t = y / SIZE;
  let c = BG_TOP.map((v, i) => v + (BG_BOTTOM[i] - v) * t);
  const w = 5.5;
  // Anchor: ring, shank, stock, arms with flukes.
  const ring = Math.abs(Math.hypot(x - 56, y - 26) - 8);
  const shank = seg(x, y, 56, 34, 56, 100);
  const stock = seg(x, y, 40, 46, 72, 46);
  const ang = Math.atan2(y - 66, x - 56);
  const arc = Math.hypot(x - 56, y - 66) - 34;
  const arms = ang > 0.15 && ang < Math.PI - 0.15 ? Math.abs(arc) : Infinity;
  const flukeL = Math.min(seg(x, y, 22, 72, 18, 62), seg(x, y, 22, 72, 31, 67));
  const flukeR = Math.min(seg(x, y, 90, 72, 94, 62), seg(x, y, 90, 72, 81, 67));
  const dAnchor = Math.min(ring, shank, stock, arms, flukeL, flukeR) - w / 2;
  if (dAnchor < 0) c = FG;
  // Run rows on the right: a pass and a fail mark.
  const check = Math.min(seg(x, y, 88, 30, 95, 37), seg(x, y, 95, 37, 110, 20)) - 3.2;
  if (check < 0) c = GREEN;
  const cross = Math.min(seg(x, y, 92, 92, 108, 108), seg(x, y, 108, 92, 92, 108)) - 3.2;
  if (cross < 0) c = RED;
  return c;
}

const raw = Buffer.alloc((SIZE * 4 + 1) * SIZE);
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = sample(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS);
        if (!c) continue;
        r += c[0]; g += c[1]; b += c[2]; a++;
      }
    }
    const o = y * (SIZE * 4 + 1) + 1 + x * 4;
    if (a > 0) { raw[o] = Math.round(r / a); raw[o + 1] = Math.round(g / a); raw[o + 2] = Math.round(b / a); }
    raw[o + 3] = Math.round((a / (SS * SS)) * 255);
  }
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = join(root, 'media', 'icon.png');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, png);
console.log(`wrote ${out} (${png.length} bytes)`);
