// Extract or list a zip with yauzl (an independent reader: we also use it to
// check the zips our own writer produces).
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

function open(file) {
  return new Promise((resolveZip, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (error, zip) => (error ? reject(error) : resolveZip(zip))),
  );
}

/**
 * Walk every entry; `onEntry(entry, readStream)` gets a function returning
 * the entry's content stream. Resolves when the archive is fully read.
 */
export async function walkZip(file, onEntry) {
  const zip = await open(file);
  await new Promise((resolveWalk, reject) => {
    zip.on('error', reject);
    zip.on('end', resolveWalk);
    zip.on('entry', (entry) => {
      const openStream = () =>
        new Promise((resolveStream, rejectStream) => zip.openReadStream(entry, (error, stream) => (error ? rejectStream(error) : resolveStream(stream))));
      Promise.resolve(onEntry(entry, openStream)).then(() => zip.readEntry(), reject);
    });
    zip.readEntry();
  });
}

/** Entries of a zip: name, size, whether a directory, and (on demand) content. */
export async function readZip(file) {
  const entries = [];
  await walkZip(file, async (entry, openStream) => {
    const isDirectory = entry.fileName.endsWith('/');
    let content = null;
    if (!isDirectory) {
      const chunks = [];
      for await (const chunk of await openStream()) {
        chunks.push(chunk);
      }
      content = Buffer.concat(chunks);
    }
    entries.push({ name: entry.fileName, isDirectory, size: entry.uncompressedSize, content });
  });
  return entries;
}

/** The content of one entry, or null when the zip has no such entry. */
export async function readZipEntry(file, name) {
  let content = null;
  await walkZip(file, async (entry, openStream) => {
    if (entry.fileName !== name) {
      return;
    }
    const chunks = [];
    for await (const chunk of await openStream()) {
      chunks.push(chunk);
    }
    content = Buffer.concat(chunks);
  });
  return content;
}

/** Extract `file` into `destination`, refusing entries that escape it. */
export async function extractZip(file, destination) {
  await walkZip(file, async (entry, openStream) => {
    const target = normalize(join(destination, entry.fileName));
    if (!target.startsWith(normalize(destination) + sep) && target !== normalize(destination)) {
      throw new Error(`Zip entry escapes the destination: ${entry.fileName}`);
    }
    if (entry.fileName.endsWith('/')) {
      await mkdir(target, { recursive: true });
      return;
    }
    await mkdir(dirname(target), { recursive: true });
    await pipeline(await openStream(), createWriteStream(target));
  });
}
