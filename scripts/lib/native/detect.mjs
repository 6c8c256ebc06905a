// Is the native runtime (Debian's PHP-FPM, nginx and MariaDB) on this
// machine? Finds each program on PATH or in the sbin directories Debian puts
// them in (not on a normal user's PATH), and reads its version.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The Debian packages `npm run setup:native` installs (see scripts/setup-native.mjs). */
export const NATIVE_PACKAGES = [
  'php-fpm',
  'php-cli',
  'php-mysql',
  'php-curl',
  'php-gd',
  'php-intl',
  'php-mbstring',
  'php-xml',
  'php-zip',
  // pdo_sqlite: the checkout's PHP tests stand in for $wpdb with an in-memory SQLite database.
  'php-sqlite3',
  // gmp and bcmath: the shared library derives bitcoin addresses (Btc\Bip32) with either; its tests and bench run both.
  'php-gmp',
  'php-bcmath',
  'nginx',
  'mariadb-server',
  // The checkout's scale bench moves a store's clock with it instead of waiting real minutes (plugins/checkout/bench/lib.ts, StoreClock).
  'libfaketime',
];

/**
 * PHP extensions WordPress and WooCommerce need at run time, pdo_sqlite,
 * which the checkout's PHP tests need, and gmp and bcmath, the two paths of
 * the shared library's address derivation that its tests and bench measure
 * (checked in the CLI, which shares the packages).
 */
export const REQUIRED_PHP_EXTENSIONS = ['mysqli', 'curl', 'gd', 'intl', 'mbstring', 'xml', 'zip', 'pdo_sqlite', 'gmp', 'bcmath'];

const SEARCH_DIRS = [...(process.env.PATH || '').split(delimiter), '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** The first executable named one of `names` on PATH or in the sbin directories. */
export function findProgram(names) {
  for (const name of names) {
    for (const dir of SEARCH_DIRS) {
      if (!dir) {
        continue;
      }
      const file = join(dir, name);
      if (existsSync(file)) {
        return file;
      }
    }
  }
  return null;
}

/** What a program printed on both streams (nginx -v writes to stderr). */
function output(file, args) {
  const result = spawnSync(file, args, { encoding: 'utf8', timeout: 10_000 });
  return `${result.stdout || ''}${result.stderr || ''}`.trim();
}

let cached;

/**
 * @return {{ available: boolean, missing: string[], programs: Record<string, string|null>, versions: Record<string, string|null>, phpExtensionsMissing: string[] }}
 */
export function detectNative({ refresh = false } = {}) {
  if (cached && !refresh) {
    return cached;
  }
  const programs = {
    php: findProgram(['php8.2', 'php8.3', 'php8.4', 'php']),
    phpFpm: findProgram(['php-fpm8.2', 'php-fpm8.3', 'php-fpm8.4', 'php-fpm']),
    nginx: findProgram(['nginx']),
    mariadbd: findProgram(['mariadbd', 'mysqld']),
    mariadbInstallDb: findProgram(['mariadb-install-db', 'mysql_install_db']),
    mariadb: findProgram(['mariadb', 'mysql']),
  };
  const versions = {
    php: programs.php ? output(programs.php, ['-r', 'echo PHP_VERSION;']) : null,
    nginx: programs.nginx ? (/nginx\/(\S+)/.exec(output(programs.nginx, ['-v']))?.[1] ?? null) : null,
    mariadb: programs.mariadbd ? (/Ver\s+(\S+)/.exec(output(programs.mariadbd, ['--version']))?.[1]?.replace(/-MariaDB.*$/, '') ?? null) : null,
  };
  const loaded = programs.php ? output(programs.php, ['-r', 'echo implode(",", get_loaded_extensions());']).toLowerCase().split(',') : [];
  const phpExtensionsMissing = programs.php ? REQUIRED_PHP_EXTENSIONS.filter((name) => !loaded.includes(name)) : [];
  const missing = Object.entries(programs)
    .filter(([, file]) => !file)
    .map(([name]) => name)
    .concat(phpExtensionsMissing.map((name) => `php extension ${name}`));
  cached = { available: missing.length === 0, missing, programs, versions, phpExtensionsMissing };
  return cached;
}

/** One line for banners: "PHP 8.2.29 (PHP-FPM), nginx 1.22.1, MariaDB 10.11.11". */
export function describeNative(native = detectNative()) {
  return `PHP ${native.versions.php} (PHP-FPM), nginx ${native.versions.nginx}, MariaDB ${native.versions.mariadb}`;
}
