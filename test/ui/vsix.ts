// What may go into the .vsix, and a reader of a zip's file names (its central directory), to check the package.
/** Paths under `extension/` that belong in the package (.vscodeignore keeps everything else out). */
export const ALLOWED_IN_VSIX: RegExp[] = [
  /^package\.json$/,
  /^readme\.md$/i,
  /^changelog\.md$/i,
  /^license(\.txt|\.md)?$/i,
  /^out\/extension\.js$/,
  /^out\/trajectoryWorker\.js$/,
  /^out\/summaryRowWorker\.js$/,
  /^out\/jobLockWorker\.js$/,
  /^out\/summaryDocWorker\.js$/,
  /^out\/summaryWriterWorker\.js$/,
  /^out\/webview\/.+\.(js|css|ttf|woff2?|svg|png)$/,
  /^media\/(icon\.png|[^/]+\.svg)$/, // not the README's screenshots (vsce points README images at the repository)
  /^schemas\/.+\.json$/,
];

/** The file names in a zip archive, read from its central directory. */
export function vsixFiles(zip: Buffer): string[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error('not a zip file (no end of central directory)');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry at ${p}`);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    names.push(zip.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}
