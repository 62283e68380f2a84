/**
 * A zip archive from files in memory (deflated, no extra fields): what the WordPress plugin's
 * installable file needs, without a zip tool on the machine or another dependency.
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** The path inside the archive, with `/`. */
  name: string;
  data: Buffer;
}

/** A fixed moment (1 January 2026, DOS format): the same files make the same archive. */
const DOS_TIME = 0;
const DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1;

/**
 * What the local header and the central directory entry both say of a file, in the order both
 * write it: version needed, flags (UTF-8 names), method (deflate), time, date, CRC, sizes, name length.
 */
function fileFields(crc: number, packed: number, size: number, nameLength: number): Buffer {
  const fields = Buffer.alloc(24);
  fields.writeUInt16LE(20, 0);
  fields.writeUInt16LE(0x0800, 2);
  fields.writeUInt16LE(8, 4);
  fields.writeUInt16LE(DOS_TIME, 6);
  fields.writeUInt16LE(DOS_DATE, 8);
  fields.writeUInt32LE(crc, 10);
  fields.writeUInt32LE(packed, 14);
  fields.writeUInt32LE(size, 18);
  fields.writeUInt16LE(nameLength, 22);
  return fields;
}

/** The archive of `entries`, in their order. */
export function zipArchive(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const packed = deflateRawSync(entry.data, { level: 9 });
    const fields = fileFields(crc32(entry.data), packed.length, entry.data.length, name.length);
    // Signature, the fields, no extra field.
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    fields.copy(local, 4);
    // Signature, made by (Unix), the fields, no extra field or comment, disk 0, attributes, offset.
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    fields.copy(central, 6);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
