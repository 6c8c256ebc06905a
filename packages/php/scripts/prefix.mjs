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
 *   <plugin>/lib/settings-schema.php  core's settings schema as a PHP array (`return array( … );`):
 *                                     PHP's opcode cache keeps it in shared memory, where JSON
 *                                     would be read and decoded (63 KB, ~0.2 ms) on every request
 *   <plugin>/lib/i18n-schema-strings.php every label and help text of this plugin's part of
 *                                     the schema (--schema-plugin; by default the text domain
 *                                     without "card2crypto-") in __() calls, so translation
 *                                     tools find them and its .pot holds no other plugin's
 * and fails if any reference to the unprefixed namespace survives.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const PACKAGE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_NAMESPACE = 'Card2Crypto\\Shared';
const SOURCE_TEXT_DOMAIN = 'card2crypto-shared';

/**
 * A JSON value as a PHP literal that PHP reads back as json_decode( …, true )
 * would: objects and lists as arrays, strings single-quoted (only \\ and \'
 * escape there), numbers as their shortest text.
 */
export function phpLiteral(value, indent = '') {
  if (value === null) {
    return 'null';
  }
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false';
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new Error(`not a JSON number: ${value}`);
    }
    return String(value);
  }
  if (typeof value === 'string') {
    return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  }
  const inner = `${indent}\t`;
  const items = Array.isArray(value)
    ? value.map((item) => `${inner}${phpLiteral(item, inner)},`)
    : Object.entries(value).map(([key, item]) => `${inner}${phpLiteral(key)} => ${phpLiteral(item, inner)},`);
  return items.length ? `array(\n${items.join('\n')}\n${indent})` : 'array()';
}

/** lib/settings-schema.php: the schema for Schema::from_file(). */
function schemaPhp(schema) {
  return `<?php\n/**\n * The settings schema of @card2crypto/core (schema/settings.json), written by\n * packages/php/scripts/prefix.mjs at build time: do not edit.\n *\n * @package card2crypto\n */\n\ndefined( 'ABSPATH' ) || exit;\n\nreturn ${phpLiteral(schema)};\n`;
}

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

function phpString(text) {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A PHP file that only lists one plugin's schema strings for translators (never called). */
export function schemaStringsPhp(schema, textDomain, pluginKey) {
  const plugin = schema.plugins?.[pluginKey];
  if (!plugin) {
    fail(`--schema-plugin: the settings schema has no plugin "${pluginKey}" (it has ${Object.keys(schema.plugins ?? {}).join(', ')})`);
  }
  const strings = new Set([plugin.title]);
  for (const group of plugin.groups) {
    strings.add(group.label);
  }
  for (const field of plugin.fields) {
    strings.add(field.label);
    strings.add(field.help);
    for (const option of field.options ?? []) {
      strings.add(option.label);
    }
    if (field.rule?.patternMessage) {
      strings.add(field.rule.patternMessage);
    }
  }
  const calls = [...strings].filter((s) => s !== '').map((s) => `\t__( ${phpString(s)}, ${phpString(textDomain)} );`);
  return [
    '<?php',
    '/**',
    ' * Generated by packages/php/scripts/prefix.mjs from the settings schema: every',
    ` * label and help text of this plugin's settings (schema plugin "${pluginKey}") that`,
    ' * its settings page translates at run time, written as literal __() calls so',
    ' * that translation tools find them. Never called.',
    ' *',
    ' * @package card2crypto',
    ' */',
    '',
    "defined( 'ABSPATH' ) || exit;",
    '',
    'if ( false ) { // phpcs:ignore Generic.CodeAnalysis.UnconditionalIfStatement.Found',
    ...calls,
    '}',
    '',
  ].join('\n');
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
  const schemaPlugin = values['schema-plugin'] ?? textDomain.replace(/^card2crypto-/, '');
  const schemaPath = resolve(values.schema ?? join(PACKAGE_DIR, '..', 'core', 'schema', 'settings.json'));
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

  let schema;
  try {
    schema = JSON.parse(await readFile(schemaPath, 'utf8'));
  } catch (error) {
    fail(`cannot read the settings schema at ${schemaPath} (build @card2crypto/core first): ${error.message}`);
  }
  await writeFile(join(libDir, 'settings-schema.php'), schemaPhp(schema));
  await writeFile(join(libDir, 'i18n-schema-strings.php'), schemaStringsPhp(schema, textDomain, schemaPlugin));
  console.log(`prefix: ${files.length} PHP files -> ${relative(process.cwd(), sharedDir)} as ${targetPrefix} (library ${version}, text domain ${textDomain})`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
