#!/usr/bin/env node
/**
 * Copies the shared PHP library into a plugin under the plugin's own
 * namespace, so that two plugins carrying different versions of it can be
 * active together without one loading the other's classes.
 *
 *   node packages/php/scripts/prefix.mjs --plugin-dir plugins/checkout \
 *     --namespace 'Card2Crypto\Checkout' --text-domain card2crypto-checkout \
 *     [--lib-version 1.2.3] [--schema packages/core/schema/settings.json] [--schema-plugin checkout]
 *
 * Writes, replacing what was there:
 *   <plugin>/lib/shared/**.php        namespace Card2Crypto\Shared -> <namespace>\Shared,
 *                                     text domain 'card2crypto-shared' -> <text-domain>,
 *                                     Library::VERSION -> the package (or --lib-version) version,
 *                                     defined( 'ABSPATH' ) || exit; after the namespace and use lines
 *                                     (the source runs without WordPress in its tests)
 * and fails if any reference to the unprefixed namespace survives. Then the
 * settings schema and its strings, as schema-php.mjs writes them
 * (<plugin>/lib/settings-schema.php, <plugin>/lib/i18n-schema-strings.php;
 * --schema and --schema-plugin are passed to it).
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_SCHEMA, writeSchemaFiles } from './schema-php.mjs';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_NAMESPACE = 'Card2Crypto\\Shared';
const SOURCE_TEXT_DOMAIN = 'card2crypto-shared';

function fail(message) {
  console.error(`prefix: ${message}`);
  process.exit(1);
}

/** Every .php file under dir, as paths relative to it. */
async function phpFiles(dir, base = dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...(await phpFiles(path, base)));
    } else if (entry.name.endsWith('.php')) {
      out.push(relative(base, path));
    }
  }
  return out.sort();
}

/**
 * Rewrites one file's namespace references. Handles `namespace X;`, `use X\...;`,
 * fully qualified `\X\...` and string literals with doubled backslashes.
 */
export function prefixSource(text, targetNamespace, textDomain, version) {
  const [vendor] = SOURCE_NAMESPACE.split('\\');
  const target = targetNamespace.replace(/\\+$/, '');
  if (!target.startsWith(`${vendor}\\`)) {
    fail(`--namespace must start with ${vendor}\\`);
  }
  const suffix = target.slice(vendor.length + 1); // e.g. Checkout
  let out = text
    // Card2Crypto\Shared (single backslash) and Card2Crypto\\Shared (inside string literals).
    .replace(/Card2Crypto(\\{1,2})Shared(?![A-Za-z0-9_])/g, (_, sep) => `Card2Crypto${sep}${suffix.split('\\').join(sep)}${sep}Shared`)
    .replaceAll(`'${SOURCE_TEXT_DOMAIN}'`, `'${textDomain}'`);
  if (version !== undefined) {
    out = out.replace(/const VERSION = '[^']*';/, `const VERSION = '${version.replace(/[^0-9A-Za-z.+-]/g, '')}';`);
  }
  return out;
}

/**
 * Adds WordPress's guard against loading the file directly, after the
 * namespace declaration and its use lines, as every file of a plugin has it.
 */
export function guardDirectAccess(text) {
  const guard = "defined( 'ABSPATH' ) || exit;";
  if (text.includes(guard)) {
    return text;
  }
  const head = /^namespace [^;]+;\n(?:\n?use [^;]+;\n)*/m.exec(text);
  if (head === null) {
    return text;
  }
  const at = head.index + head[0].length;
  return `${text.slice(0, at)}\n${guard}\n${text.slice(at)}`;
}

async function main() {
  const { values } = parseArgs({
    options: {
      'plugin-dir': { type: 'string' },
      namespace: { type: 'string' },
      'text-domain': { type: 'string' },
      'lib-version': { type: 'string' },
      schema: { type: 'string' },
      'schema-plugin': { type: 'string' },
    },
  });
  const pluginDir = values['plugin-dir'] ? resolve(values['plugin-dir']) : fail('--plugin-dir is required');
  const namespace = values.namespace ?? fail('--namespace is required (e.g. Card2Crypto\\Checkout)');
  const textDomain = values['text-domain'] ?? fail('--text-domain is required');
  const packageJson = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8'));
  const version = values['lib-version'] ?? packageJson.version;

  const sourceDir = join(PACKAGE_DIR, 'src');
  const libDir = join(pluginDir, 'lib');
  const sharedDir = join(libDir, 'shared');
  await rm(sharedDir, { recursive: true, force: true });

  const files = await phpFiles(sourceDir);
  const targetPrefix = `${namespace.replace(/\\+$/, '')}\\Shared`;
  for (const file of files) {
    const text = await readFile(join(sourceDir, file), 'utf8');
    const out = guardDirectAccess(prefixSource(text, namespace, textDomain, version));
    if (!out.includes("defined( 'ABSPATH' ) || exit;")) {
      fail(`${file}: no namespace line to put the ABSPATH guard after`);
    }
    if (/Card2Crypto\\{1,2}Shared(?![A-Za-z0-9_])/.test(out)) {
      fail(`${file}: a reference to ${SOURCE_NAMESPACE} survived the rewrite`);
    }
    if (out.includes(`'${SOURCE_TEXT_DOMAIN}'`)) {
      fail(`${file}: the placeholder text domain survived the rewrite`);
    }
    const declared = /^namespace\s+([^;]+);/m.exec(out)?.[1];
    if (declared !== undefined && !declared.startsWith(targetPrefix)) {
      fail(`${file}: declares namespace ${declared}, outside ${targetPrefix}`);
    }
    await mkdir(dirname(join(sharedDir, file)), { recursive: true });
    await writeFile(join(sharedDir, file), out);
  }

  try {
    await writeSchemaFiles(libDir, { textDomain, schemaPath: values.schema ? resolve(values.schema) : DEFAULT_SCHEMA, pluginKey: values['schema-plugin'] });
  } catch (error) {
    fail(error.message);
  }
  console.log(`prefix: ${files.length} PHP files -> ${relative(process.cwd(), sharedDir)} as ${targetPrefix} (library ${version}, text domain ${textDomain})`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
