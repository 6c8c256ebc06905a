// One store per site folder: a second `npm start` (or e2e run) on a site
// that is already running says so, with the running one's address and
// process id, instead of failing half way (a second MariaDB on the same data
// directory exits with code 1). The record is `<stateDir>.owner.json`, beside
// the site's folder (so that --reset may empty that), created atomically;
// one left by a run that crashed (its process gone) is cleared, and said so.
import { readFileSync } from 'node:fs';
import { mkdir, open, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A store already runs from this site folder. */
export class AlreadyRunningError extends Error {
  constructor(message, owner) {
    super(message);
    this.name = 'AlreadyRunningError';
    this.owner = owner;
  }
}

/** Is `pid` a live process (and, where /proc tells, a Node one: a reused pid is not ours)? */
export function isAliveNode(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if (error.code !== 'EPERM') {
      return false;
    }
  }
  try {
    return /node/i.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    // No /proc here: alive is all we know.
    return true;
  }
}

const clock = (iso) => new Date(iso).toTimeString().slice(0, 5);

/**
 * Take the site folder for this process.
 * @param {string}                                         stateDir
 * @param {{ what: string, log?: (line: string) => void }} options  what: who runs it ("npm start", "the e2e run")
 * @return {Promise<{ update: (fields: object) => Promise<void>, release: () => Promise<void> }>}
 */
export async function lockSite(stateDir, { what, log = () => {} }) {
  await mkdir(dirname(stateDir), { recursive: true });
  const file = `${stateDir}.owner.json`;
  let record = { pid: process.pid, what, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    let handle;
    try {
      handle = await open(file, 'wx');
    } catch (error) {
      if (error.code !== 'EEXIST') {
        throw error;
      }
      let owner = null;
      try {
        owner = JSON.parse(readFileSync(file, 'utf8'));
      } catch {
        // Half-written by a process that died at that moment: stale.
      }
      if (owner?.pid && isAliveNode(owner.pid)) {
        const where = owner.storeUrl ? `${owner.storeUrl}/` : 'still starting';
        throw new AlreadyRunningError(
          `a store is already running from this folder: ${where} (${owner.what ?? 'a harness run'}, process ${owner.pid}, since ${clock(owner.startedAt)}). ` +
            `Use that one, or stop it first (Ctrl-C where it runs, or kill ${owner.pid}).`,
          owner,
        );
      }
      log(`Cleared the record of a run that did not stop cleanly${owner?.pid ? ` (process ${owner.pid}, gone)` : ''}: ${file}`);
      await rm(file, { force: true });
      await rm(join(stateDir, 'running.json'), { force: true });
      continue;
    }
    await handle.writeFile(JSON.stringify(record, null, 2));
    await handle.close();
    return {
      update: async (fields) => {
        record = { ...record, ...fields };
        await writeFile(file, JSON.stringify(record, null, 2));
      },
      release: () => rm(file, { force: true }),
    };
  }
  throw new Error(`Could not take ${file}: another run keeps creating it`);
}
