// A WordPress site on the native runtime: its own MariaDB, PHP-FPM and nginx
// (each started here and stopped by PID), its files under the site's state
// directory, bound to 127.0.0.1. The counterpart of ../playground.mjs.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { mkdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { detectNative } from './detect.mjs';
import { DATABASE, startMariaDb } from './mariadb.mjs';
import { startNginx } from './nginx.mjs';
import { mailSink, startPhpFpm } from './php-fpm.mjs';
import { socketDir } from './sockets.mjs';
// One writer of PHP literals for the project (the build writes the settings schema with it too).
import { phpLiteral } from '../../../packages/php/scripts/schema-php.mjs';

export { phpLiteral };

const run = promisify(execFile);
const SETUP_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'wp-setup.php');

/** While wp-setup.php's install step runs, a multisite wp-config.php loads WordPress as one site (the network is made then). */
export const NETWORK_SETUP_CONSTANT = 'CARD2CRYPTO_NETWORK_SETUP';

/**
 * The site's wp-config.php: the socket database, fixed URLs, debug log on, no
 * calls home. `serverUploads`: each web server (PHP-FPM master) keeps its
 * uploads in the folder its pool names (CARD2CRYPTO_UPLOADS, php-fpm.mjs).
 * `multisite`: a subdirectory network on the site's address (its port
 * included); every site keeps its own address in the database, so WP_HOME
 * and WP_SITEURL (which would give every site the main one's) are not set.
 */
export function wpConfig({ url, dbSocket, salts, defines = {}, serverUploads = false, multisite = false }) {
  const urls = multisite ? {} : { WP_HOME: url, WP_SITEURL: url };
  const constants = {
    DB_NAME: DATABASE.name,
    DB_USER: DATABASE.user,
    DB_PASSWORD: DATABASE.password,
    DB_HOST: `localhost:${dbSocket}`,
    DB_CHARSET: 'utf8mb4',
    DB_COLLATE: '',
    ...urls,
    WP_DEBUG: true,
    WP_DEBUG_LOG: true,
    WP_DEBUG_DISPLAY: false,
    FS_METHOD: 'direct',
    // No update checks or marketplace calls: external HTTP is refused at once
    // (this machine may be offline); the store and the sandbox on 127.0.0.1 stay reachable.
    WP_HTTP_BLOCK_EXTERNAL: true,
    AUTOMATIC_UPDATER_DISABLED: true,
    WP_AUTO_UPDATE_CORE: false,
    ...salts,
    ...defines,
  };
  const lines = ['<?php', '// Written by scripts/lib/native/site.mjs at every start.'];
  for (const [name, value] of Object.entries(constants)) {
    lines.push(`define( '${name}', ${phpLiteral(value)} );`);
  }
  if (serverUploads) {
    lines.push(
      '// Several web servers: each its own uploads folder (php-fpm.mjs); the CLI uses the usual one.',
      "if ( false !== getenv( 'CARD2CRYPTO_UPLOADS' ) && '' !== getenv( 'CARD2CRYPTO_UPLOADS' ) ) {",
      "\tdefine( 'UPLOADS', getenv( 'CARD2CRYPTO_UPLOADS' ) );",
      '}',
    );
  }
  if (multisite) {
    const network = {
      MULTISITE: true,
      SUBDOMAIN_INSTALL: false,
      DOMAIN_CURRENT_SITE: new URL(url).host,
      PATH_CURRENT_SITE: '/',
      SITE_ID_CURRENT_SITE: 1,
      BLOG_ID_CURRENT_SITE: 1,
    };
    lines.push(
      `// A multisite network (wp-setup.php's install step makes it, loading WordPress as one site meanwhile).`,
      `if ( ! defined( '${NETWORK_SETUP_CONSTANT}' ) ) {`,
      ...Object.entries(network).map(([name, value]) => `\tdefine( '${name}', ${phpLiteral(value)} );`),
      '}',
    );
  }
  lines.push(
    "$table_prefix = 'wp_';",
    "if ( ! defined( 'ABSPATH' ) ) {",
    "\tdefine( 'ABSPATH', __DIR__ . '/' );",
    '}',
    "require_once ABSPATH . 'wp-settings.php';",
    '',
  );
  return lines.join('\n');
}

async function saltsFor(stateDir) {
  const file = join(stateDir, 'salts.json');
  if (existsSync(file)) {
    return JSON.parse(readFileSync(file, 'utf8'));
  }
  const salts = {};
  for (const name of ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT']) {
    salts[name] = randomBytes(32).toString('base64');
  }
  await writeFile(file, JSON.stringify(salts), { mode: 0o600 });
  return salts;
}

/** Replaces whatever is at `target` by a symlink to `source` (a directory mounted into the site). */
async function link(source, target) {
  let stat = null;
  try {
    stat = lstatSync(target);
  } catch {
    // nothing there
  }
  if (stat?.isSymbolicLink() && (await readlink(target)) === source) {
    return;
  }
  if (stat) {
    await rm(target, { recursive: true, force: true });
  }
  await mkdir(dirname(target), { recursive: true });
  await symlink(source, target, 'dir');
}

/** Runs wp-setup.php with the site's PHP CLI; returns its JSON answer. */
export async function wpSetup(step, siteDir, options, { runDir, logDir }) {
  const { programs } = detectNative();
  const file = join(runDir, `${step}.json`);
  await writeFile(file, JSON.stringify(options), { mode: 0o600 });
  try {
    const { stdout } = await run(programs.php, ['-d', 'display_errors=stderr', '-d', `sendmail_path=${mailSink(logDir)}`, SETUP_SCRIPT, step, siteDir, file], {
      timeout: 5 * 60_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    const last = stdout.trim().split('\n').pop();
    return JSON.parse(last);
  } catch (error) {
    const said = `${error.stdout || ''}\n${error.stderr || ''}`.trim().slice(-3000);
    throw new Error(`WordPress ${step} failed in ${siteDir}: ${said || error.message}`);
  }
}

/**
 * Boots a native WordPress site.
 *
 * @param {Object}                                options
 * @param {string}                                options.stateDir    the site's state directory (.card2crypto/<site>)
 * @param {string}                                options.siteDir     the WordPress directory (made from `options.prepare` when empty)
 * @param {string}                                options.logDir
 * @param {number}                                options.port
 * @param {string}                                [options.host]      the address nginx binds (127.0.0.1 unless asked otherwise)
 * @param {(siteDir: string) => Promise<void>}    options.prepare     lays out WordPress's files into an empty siteDir
 * @param {Array<[string, string]>}               [options.links]     [host directory, path inside the site] pairs (symlinks)
 * @param {Record<string, string|boolean|number>} [options.defines]   extra wp-config constants
 * @param {string[]}                              [options.activate]  plugin basenames to activate
 * @param {{harnessDir: string, file: string}}    [options.seed]      the harness seed to run after activation
 * @param {number}                                [options.children]  PHP-FPM workers (at least 4) of each web server
 * @param {number}                                [options.servers]   web servers: PHP-FPM masters behind the one nginx (1)
 * @param {{username: string, password: string}}  options.admin
 * @param {string}                                [options.title]     the site title
 * @param {boolean}                               [options.multisite] a subdirectory multisite network on the site's
 *                                                                    address, this site its main site (false: one site)
 */
export async function startNativeSite({
  stateDir,
  siteDir,
  logDir,
  port,
  host = '127.0.0.1',
  prepare,
  links = [],
  defines = {},
  activate = [],
  seed,
  children = 4,
  servers = 1,
  admin,
  title = 'card2crypto',
  multisite = false,
}) {
  const native = detectNative();
  if (!native.available) {
    throw new Error(`The native runtime is not installed (missing: ${native.missing.join(', ')}); run npm run setup:native`);
  }
  await mkdir(logDir, { recursive: true });
  if (!existsSync(join(siteDir, 'wp-includes', 'version.php'))) {
    await mkdir(siteDir, { recursive: true });
    await prepare(siteDir);
    // Playground's npm builds bring an SQLite drop-in; this site runs MariaDB.
    const dropIn = join(siteDir, 'wp-content', 'db.php');
    if (existsSync(dropIn) && /sqlite/i.test(readFileSync(dropIn, 'utf8'))) {
      await rm(dropIn);
    }
  }
  for (const [source, inside] of links) {
    await link(source, join(siteDir, inside));
  }

  const runDir = join(stateDir, 'run');
  await mkdir(runDir, { recursive: true });
  const sockets = socketDir(runDir);
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const stoppers = [];
  const stop = async () => {
    for (const stopOne of stoppers.splice(0).reverse()) {
      await stopOne().catch(() => {});
    }
  };
  try {
    const db = await startMariaDb({ dir: join(stateDir, 'mariadb'), socketDir: sockets, logFile: join(logDir, 'mariadb.log') });
    stoppers.push(db.stop);
    const several = servers > 1;
    await writeFile(
      join(siteDir, 'wp-config.php'),
      wpConfig({ url, dbSocket: db.socket, salts: await saltsFor(stateDir), defines, serverUploads: several, multisite }),
    );
    const installed = await wpSetup(
      'install',
      siteDir,
      { url, title, admin: { ...admin, email: `${admin.username}@example.com` }, ...(multisite ? { multisite: true } : {}) },
      { runDir, logDir },
    );
    // One PHP-FPM master per web server (php-fpm.mjs); the first one's folders stay where a single server's are.
    const fpms = [];
    for (let i = 1; i <= servers; i++) {
      const name = `server-${i}`;
      const fpm = several
        ? await startPhpFpm({
            dir: join(runDir, name),
            socketDir: sockets,
            logDir: join(logDir, name),
            children,
            server: { name, tempDir: join(runDir, name), uploads: `wp-content/uploads-${name}` },
          })
        : await startPhpFpm({ dir: runDir, socketDir: sockets, logDir, children });
      stoppers.push(fpm.stop);
      fpms.push([name, fpm]);
    }
    const web = await startNginx(
      several
        ? { dir: runDir, logDir, port, host, root: siteDir, fpmServers: fpms.map(([name, fpm]) => [name, fpm.socket]) }
        : { dir: runDir, logDir, port, host, root: siteDir, fpmSocket: fpms[0][1].socket },
    );
    stoppers.push(web.stop);
    // Plugins are activated in a request of their own: the seed then runs with
    // them loaded from the start, as on every later request (WooCommerce
    // activated mid-request has not run its init hooks, and says so).
    let setup = await wpSetup('setup', siteDir, { url, activate, seed: null }, { runDir, logDir });
    if (seed) {
      setup = await wpSetup('setup', siteDir, { url, activate: [], seed }, { runDir, logDir });
    }
    const children_ = {
      MariaDB: db.child,
      ...Object.fromEntries(fpms.map(([name, fpm]) => [several ? `PHP-FPM ${name}` : 'PHP-FPM', fpm.child])),
      nginx: web.child,
    };
    const unexpectedExit = new Promise((resolveExit) => {
      for (const [name, child] of Object.entries(children_)) {
        child.once('exit', (code, signal) => resolveExit({ name, code, signal }));
      }
    });
    return {
      url,
      dbSocket: db.socket,
      /**
       * Runs PHP files with WordPress loaded as the admin (wp-setup.php's setup step); on a
       * network, `path` ('/shop2/') loads that site of it, as a request to its address does.
       */
      runPhp: (files, { path = '/' } = {}) => wpSetup('setup', siteDir, { url, activate: [], run: files, seed: null, path }, { runDir, logDir }),
      multisite,
      installedNow: installed.installed,
      wordpressVersion: installed.version,
      activated: setup.activated,
      pids: {
        mariadb: db.pid,
        ...(several ? Object.fromEntries(fpms.map(([name, fpm]) => [`phpFpm-${name}`, fpm.pid])) : { phpFpm: fpms[0][1].pid }),
        nginx: web.pid,
      },
      servers: fpms.map(([name]) => name),
      children: children_,
      unexpectedExit,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
