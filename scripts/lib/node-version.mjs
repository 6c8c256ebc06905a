// The Node this project supports (package.json "engines", .nvmrc) and the one
// line an older Node gets: npm's own EBADENGINE warnings name each dependency
// apart, this says what they mean and what fixes them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.mjs';

/** The lowest supported version, from package.json's engines.node (">=24.18" → [24, 18, 0]). */
export function supportedNode(root = ROOT) {
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node ?? '';
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!match) {
    throw new Error(`package.json engines.node is "${range}": expected ">=MAJOR.MINOR"`);
  }
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/** One line when `version` is older than the supported Node, else null. */
export function oldNodeLine(version = process.versions.node, minimum = supportedNode()) {
  const have = version.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if ((have[i] ?? 0) !== minimum[i]) {
      if ((have[i] ?? 0) > minimum[i]) {
        return null;
      }
      const wanted = minimum.slice(0, minimum[2] ? 3 : 2).join('.');
      return `*** card2crypto needs Node ${wanted} or newer (Node ${minimum[0]}, the LTS: .nvmrc), this is Node ${have.join('.')}: its dependencies (WordPress Playground, the WordPress e2e utilities) ask for it, hence npm's EBADENGINE warnings; "nvm install" in this folder (or nodejs.org) fixes it. ***`;
    }
  }
  return null;
}
