// A small ZIP writer (deflate via node:zlib), so building the plugin zips
// needs no `zip` binary. Plain ZIP (no ZIP64): up to 65,535 entries and 4 GiB,
// far beyond a plugin. Names are UTF-8 (general purpose flag bit 11).
import { crc32 as zlibCrc32, deflateRawSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});

/** CRC-32 of a buffer (zlib's when this Node has it). */
export function crc32(data) {
  if (typeof zlibCrc32 === 'function') {
    return zlibCrc32(data) >>> 0;
  }
  let crc = 0xffffffff;
  for (const byte of data) {
    crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** MS-DOS date and time words (local time, 2-second resolution, 1980-2107). */
function dosDateTime(date) {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * Build a zip archive in memory.
 * @param {Array<{name: string, data?: Buffer, mtime?: Date, mode?: number}>} entries
 *                                                                                      names use "/" separators; a name ending in "/" is a directory.
 * @param {{level?: number}}                                                  [options] deflate level (9, the smallest, unless told; 0 stores)
 * @return {Buffer}
 */
export function createZip(entries, { level = 9 } = {}) {
  if (entries.length > 0xffff) {
    throw new Error(`Too many zip entries (${entries.length}); ZIP64 is not supported`);
  }
  const locals = [];
  const centrals = [];
  let offset = 0;
  const seen = new Set();
  for (const entry of entries) {
    if (!entry.name || entry.name.startsWith('/') || entry.name.split('/').includes('..')) {
      throw new Error(`Unsafe zip entry name: ${entry.name}`);
    }
    if (seen.has(entry.name)) {
      throw new Error(`Duplicate zip entry: ${entry.name}`);
    }
    seen.add(entry.name);
    const isDirectory = entry.name.endsWith('/');
    const data = isDirectory ? Buffer.alloc(0) : (entry.data ?? Buffer.alloc(0));
    const deflated = data.length > 0 && level > 0 ? deflateRawSync(data, { level }) : null;
    // Store when deflating does not help (already compressed images, tiny files).
    const method = deflated && deflated.length < data.length ? 8 : 0;
    const body = method === 8 ? deflated : data;
    if (data.length > 0xfffffffe || offset > 0xfffffffe) {
      throw new Error(`Zip too large at ${entry.name}; ZIP64 is not supported`);
    }
    const name = Buffer.from(entry.name, 'utf8');
    const { time, date } = dosDateTime(entry.mtime ?? new Date());
    const crc = crc32(data);
    const mode = entry.mode ?? (isDirectory ? 0o40755 : 0o100644);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate, directories)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0 (so the mode below counts)
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30); // extra
    central.writeUInt16LE(0, 32); // comment
    central.writeUInt16LE(0, 34); // disk
    central.writeUInt16LE(0, 36); // internal attributes
    central.writeUInt32LE((((mode & 0xffff) << 16) | (isDirectory ? 0x10 : 0)) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + body.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, ...centrals, end]);
}
