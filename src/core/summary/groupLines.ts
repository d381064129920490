// The lines of one group of a file, found and picked by whoever reads that group (a row worker reading the file
// itself: parallelFileRows.ts). Group k is bytes [k·size, (k+1)·size) of the file, as forEachLine reads its chunks one
// after the other. A group owns the lines that start in it: the first one starts after its first newline (or at its
// start, when the byte before it is a newline, or in group 0); its last one may run on past its end, and is then read
// on from the groups after it, with forEachLine's rules for a line too long (lines.ts), so that every line is read by
// exactly one group, whoever reads the groups and in whatever order, with the same outcome as forEachLine and
// pickLine give on one thread.
//
// A group is read a piece at a time into one small region that is used again and again (the part of a line a piece
// cuts is moved to the region's start). Read into fresh memory, a 4 MiB chunk costs the kernel's copy about three
// times what the same bytes cost read into a region the processor's cache already holds; and the picker then scans
// bytes still in that cache. Where WebAssembly runs, the region is the skipper's memory (skipWasm.ts), so strings
// are skipped there with no copy.
import { asBuffer } from '../bytes';
import { pickLine, RESULT_KEYS, type LineOutcome } from './lineOutcome';

/** Positional reads of the file: up to `length` bytes at `position` into `buf` at `offset`; 0 at the end. */
export type ReadAt = (buf: Uint8Array, offset: number, length: number, position: number) => number;

/** A region read into again and again: `ensure(n, keep)` gives it at least `n` bytes, its first `keep` kept. */
export interface Region { ensure(n: number, keep: number): Uint8Array }

/** A Region of plain memory (where no skipper runs). */
export function plainRegion(): Region {
  let bytes: Uint8Array = new Uint8Array(0);
  return {
    ensure(n, keep) {
      if (bytes.length >= n) return bytes;
      const next = asBuffer(new Uint8Array(Math.max(n, bytes.length * 2)));
      next.set(bytes.subarray(0, keep));
      bytes = next;
      return bytes;
    },
  };
}

/** Bytes read at a time: a quarter of this machine class's 1 MiB of second-level cache, twice what a row holds. */
export const PIECE = 256 << 10;

export interface GroupLines {
  k: number;
  /** Lines starting in the group, blank ones included. */
  lines: number;
  /** [index of the line in the group, its outcome] for each non-blank line that was picked. */
  outcomes: [number, LineOutcome][];
  /** [index of the line in the group, its length] for each line over the limit (not picked). */
  longs: [number, number][];
  /** Index of the line that ends the file with no newline after it (its outcome is not terminated), or -1. */
  cut: number;
  /** Bytes of the whole lines (newlines included; not a cut-off last line): progress. */
  bytes: number;
  /** The file ends in this group or before it: no later group holds a line. */
  last: boolean;
}

/** Reads until `length` bytes or the end of the file. */
function readFull(read: ReadAt, buf: Uint8Array, offset: number, length: number, position: number): number {
  let got = 0;
  while (got < length) {
    const n = read(buf, offset + got, length - got, position + got);
    if (n <= 0) break;
    got += n;
  }
  return got;
}

type Emit = (b: Uint8Array, start: number, nl: number, terminated: boolean) => void;

/** The lines of group `k` of `size` bytes, read `piece` bytes at a time into `region` (the outcomes hold no view of it). */
export function groupLines(read: ReadAt, k: number, size: number, maxLine: number, region: Region, piece = PIECE): GroupLines {
  const out: GroupLines = { k, lines: 0, outcomes: [], longs: [], cut: -1, bytes: 0, last: false };
  const emit: Emit = (b, start, nl, terminated) => {
    const end = nl > start && b[nl - 1] === 13 ? nl - 1 : nl;
    const o = pickLine(RESULT_KEYS, asBuffer(b), start, end, k === 0 && out.lines === 0, terminated);
    if (o) out.outcomes.push([out.lines, o]);
    if (!terminated) out.cut = out.lines;
    out.lines++;
  };
  // The first piece starts with the byte before the group (k > 0), to tell whether a line starts at its start.
  const head = k > 0 ? 1 : 0;
  const groupEnd = (k + 1) * size;
  let pos = k * size - head;
  let want = Math.min(piece + head, groupEnd - pos);
  let buf = asBuffer(region.ensure(want, 0)) as Buffer;
  let end = readFull(read, buf, 0, want, pos);
  pos += end;
  let eof = end < want;
  if (end <= head) { out.last = eof; return out; }
  // Until a newline: the end of a line that started in an earlier group (not this group's).
  let seeking = head === 1 && buf[0] !== 10;
  let s = head;
  for (;;) {
    if (seeking) {
      const nl = buf.indexOf(10, s);
      if (nl >= 0 && nl < end) { seeking = false; s = nl + 1; } else s = end;
    }
    if (!seeking) {
      for (;;) {
        const nl = buf.indexOf(10, s);
        if (nl < 0 || nl >= end) break;
        emit(buf, s, nl, true);
        out.bytes += nl + 1 - s;
        s = nl + 1;
      }
    }
    if (eof || pos >= groupEnd) break;
    // The part of a line the piece cut goes to the region's start, and the next piece after it.
    const keep = end - s;
    if (keep > 0 && s > 0) buf.copyWithin(0, s, end);
    want = Math.min(piece, groupEnd - pos);
    buf = asBuffer(region.ensure(keep + want, keep)) as Buffer;
    const got = readFull(read, buf, keep, want, pos);
    pos += got;
    eof = got < want;
    s = 0;
    end = keep + got;
  }
  out.last = eof;
  if (seeking || s === end) return out;
  // A line left: the file's last, with no newline after it, or one that runs on past the group.
  if (eof) emit(buf, s, end, false);
  else runOn(read, out, new Uint8Array(buf.subarray(s, end)), groupEnd, size, maxLine, piece, emit);
  return out;
}

/**
 * A line that starts with `carry` (the end of its own group) and goes on in the groups from `at`: assembled while it
 * fits (a group with no newline that would take it past `maxLine` makes it a long line, only counted from then on, as
 * forEachLine counts it by its chunks), and emitted, or counted in `longs`. Each group is read a piece at a time up to
 * the first newline in it.
 */
function runOn(read: ReadAt, out: GroupLines, carry0: Uint8Array, at: number, size: number, maxLine: number, piece: number,
  emit: Emit): void {
  let carry: Uint8Array | null = carry0;
  let dropped = 0;
  const scratch = asBuffer(new Uint8Array(Math.min(piece, size))) as Buffer;
  const ending = () => {
    out.last = true;
    if (dropped) { out.longs.push([out.lines, dropped]); out.lines++; } else emit(carry!, 0, carry!.length, false);
  };
  for (;; at += size) {
    // This group's bytes up to its first newline (nl: their count), or all of them (n) when it has none.
    let n = 0;
    let nl = -1;
    const parts: Uint8Array[] = [];
    while (n < size) {
      const want = Math.min(scratch.length, size - n);
      const got = readFull(read, scratch, 0, want, at + n);
      const i = scratch.indexOf(10);
      if (i >= 0 && i < got) { nl = n + i; if (!dropped) parts.push(new Uint8Array(scratch.subarray(0, i))); break; }
      // (Copies: the scratch is read into again. Not Buffer#slice, which is a view.)
      if (!dropped) parts.push(new Uint8Array(scratch.subarray(0, got)));
      n += got;
      if (got < want) break;
    }
    if (n === 0 && nl < 0) { ending(); return; }
    if (dropped) {
      if (nl < 0) dropped += n;
      else { out.longs.push([out.lines, dropped + nl]); out.lines++; out.bytes += dropped + nl + 1; return; }
    } else if (nl < 0 && carry!.length + n > maxLine) {
      dropped = carry!.length + n;
      carry = null;
    } else {
      const joined: Uint8Array = new Uint8Array(carry!.length + (nl < 0 ? n : nl));
      joined.set(carry!);
      let o = carry!.length;
      for (const p of parts) { joined.set(p, o); o += p.length; }
      carry = joined;
      if (nl >= 0) { emit(joined, 0, joined.length, true); out.bytes += joined.length + 1; return; }
    }
    if (n < size) { ending(); return; }
  }
}
