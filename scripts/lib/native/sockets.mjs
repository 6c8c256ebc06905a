// Unix socket paths are limited to 107 bytes; a site under a deep checkout
// (CI clones into long temporary paths) would overflow it, so its sockets
// then live in a short directory under the system temp dir, named by a hash
// of the site's directory so that two sites never share one.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LIMIT = 100;

/** The directory for a site's sockets: `<runDir>` when its paths fit, else a short one under the temp dir. */
export function socketDir(runDir) {
  const dir = join(runDir, 'x'.repeat(16)).length <= LIMIT ? runDir : join(tmpdir(), `c2c-${createHash('sha1').update(runDir).digest('hex').slice(0, 12)}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
