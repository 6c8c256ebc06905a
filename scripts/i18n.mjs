#!/usr/bin/env node
// `npm run i18n` (also run by `npm run zip`): each plugin's translation
// template, plugins/<plugin>/languages/<text domain>.pot, from
//   PHP   the main file's header, includes/, uninstall.php and lib/ (the
//         shared library and schema strings the build wrote for this plugin) -- wp-pot;
//   JS    src/**/*.{ts,tsx,js} -- @wordpress/babel-plugin-makepot;
//   JSON  block.json titles, descriptions and keywords, in the contexts
//         WordPress translates them with ("block title", ...).
// Only calls with the plugin's own text domain are taken (wp-pot filters PHP
// by domain; JS calls in another domain are an error here). The output has
// no creation date, so it changes only when the strings do.
// `npm run i18n -- --check` writes nothing and fails when a .pot is stale.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { transformSync } from '@babel/core';
import makepot from '@wordpress/babel-plugin-makepot';
import gettextParser from 'gettext-parser';
import wpPot from 'wp-pot';
import wpPotPhp from 'wp-pot/dist/php-translation-parser.js';

const { WP_Pot: WpPot } = wpPot;
import { PLUGINS } from './lib/paths.mjs';

const { po } = gettextParser;

/** Gettext functions and the position of their text domain argument (WordPress's, for both PHP and JS). */
export const DOMAIN_ARGUMENT = {
  __: 1,
  _e: 1,
  _x: 2,
  _ex: 2,
  _n: 3,
  _nx: 4,
  esc_html__: 1,
  esc_html_e: 1,
  esc_html_x: 2,
  esc_attr__: 1,
  esc_attr_e: 1,
  esc_attr_x: 2,
  _n_noop: 2,
  _nx_noop: 3,
};

/** The plugin's text domain: its slug (card2crypto-checkout, card2crypto-widget). */
export const textDomain = (plugin) => plugin.slug;

export const potFile = (plugin) => path.join(plugin.dir, 'languages', `${textDomain(plugin)}.pot`);

function walk(dir, accept, out = []) {
  if (!existsSync(dir)) {
    return out;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      walk(file, accept, out);
    } else if (accept(entry.name)) {
      out.push(file);
    }
  }
  return out.sort();
}

/** The plugin's JavaScript/TypeScript sources (declaration files hold no calls). */
export const scriptSources = (plugin) => walk(path.join(plugin.dir, 'src'), (name) => /\.(?:[cm]?js|jsx|ts|tsx)$/.test(name) && !name.endsWith('.d.ts'));

/** The plugin's PHP files that ship: main file, uninstall.php, includes/, lib/ (built). */
export const phpSources = (plugin) => [
  ...readdirSync(plugin.dir)
    .filter((name) => name.endsWith('.php'))
    .sort()
    .map((name) => path.join(plugin.dir, name)),
  ...walk(path.join(plugin.dir, 'includes'), (name) => name.endsWith('.php')),
  ...walk(path.join(plugin.dir, 'lib'), (name) => name.endsWith('.php')),
];

/** A header field of the plugin's main file ("Plugin Name", "Version"). */
const header = (plugin, field) =>
  new RegExp(`^\\s*\\*\\s*${field}:\\s*(.+?)\\s*$`, 'm').exec(readFileSync(path.join(plugin.dir, plugin.main), 'utf8'))?.[1] ?? '';

/**
 * wp-pot's PHP parser, also looking inside array keys: wp-pot 2.0.0 walks a
 * fixed list of AST properties without "offset", so it misses the strings of
 * `$rows[ __( 'Status', ... ) ] = ...` (found by scripts/test/i18n.test.mjs).
 */
function phpParser(options) {
  const parser = new wpPotPhp.PhpParser(options);
  const parseTree = parser.parseCodeTree; // recurses through parser.parseCodeTree, i.e. through the wrapper below
  parser.parseCodeTree = (ast) => {
    const found = parseTree(ast);
    if (ast && !Array.isArray(ast) && ast.kind === 'offsetlookup' && ast.offset) {
      found.push(...parser.parseCodeTree(ast.offset));
    }
    return found;
  };
  return parser;
}

/** Strings of the PHP files, as a parsed .pot. */
function phpPot(plugin) {
  const pot = new WpPot({ php: { textdomain: textDomain(plugin), metadataFile: plugin.main } });
  for (const file of phpSources(plugin)) {
    const relative = path.relative(plugin.dir, file).split(path.sep).join('/');
    pot.translations.push(...phpParser(pot.options.php).parseFile(readFileSync(file, 'utf8'), relative));
  }
  return po.parse(pot.generatePot());
}

/**
 * A Babel plugin that records every gettext call whose text domain is not
 * the literal `domain` (such a string is extracted but never translated).
 */
const domainCheck = (domain, problems) => () => ({
  visitor: {
    CallExpression(call, state) {
      const { callee } = call.node;
      const name = callee.type === 'MemberExpression' ? callee.property.name : callee.name;
      if (!(name in DOMAIN_ARGUMENT)) {
        return;
      }
      const argument = call.node.arguments[DOMAIN_ARGUMENT[name]];
      if (argument?.type !== 'StringLiteral' || argument.value !== domain) {
        problems.push(`${path.relative(process.cwd(), state.filename)}:${call.node.loc.start.line}: ${name}() must name the text domain '${domain}' literally`);
      }
    },
  },
});

/** Strings of the scripts, as parsed .pot files (one per file with strings). */
function scriptPots(plugin) {
  const problems = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'card2crypto-makepot-'));
  try {
    return scriptSources(plugin).flatMap((file, i) => {
      const output = path.join(dir, `${i}.pot`);
      // A fresh plugin function per file: makepot keeps the strings of every file it saw in the instance Babel caches.
      const extractor = (...args) => makepot(...args);
      transformSync(readFileSync(file, 'utf8'), {
        filename: file,
        babelrc: false,
        configFile: false,
        code: false,
        parserOpts: { plugins: ['typescript', 'jsx', 'importAttributes'] },
        plugins: [[extractor, { output }], domainCheck(textDomain(plugin), problems)],
      });
      if (!existsSync(output)) {
        return [];
      }
      const pot = po.parse(readFileSync(output));
      for (const entries of Object.values(pot.translations)) {
        for (const entry of Object.values(entries)) {
          // makepot writes references relative to the working directory; the .pot's are relative to the plugin.
          if (entry.comments?.reference) {
            entry.comments.reference = entry.comments.reference
              .split('\n')
              .map((reference) => path.relative(plugin.dir, path.resolve(reference)).split(path.sep).join('/'))
              .join('\n');
          }
          // makepot drops the "translators:" keyword that wp-pot (and WP-CLI) keep; put it back so both read alike.
          if (entry.comments?.extracted) {
            entry.comments.extracted = entry.comments.extracted.replace(/^(?!translators:)/i, 'translators: ');
          }
        }
      }
      return [pot];
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (problems.length) {
      throw new Error(`${plugin.slug}:\n  ${problems.join('\n  ')}`);
    }
  }
}

/** block.json strings, with the contexts register_block_type() translates them in. */
function blockJsonEntries(plugin) {
  const entries = [];
  for (const file of walk(path.join(plugin.dir, 'src'), (name) => name === 'block.json')) {
    const block = JSON.parse(readFileSync(file, 'utf8'));
    if (block.textdomain !== textDomain(plugin)) {
      throw new Error(`${path.relative(plugin.dir, file)}: "textdomain" is ${JSON.stringify(block.textdomain)}, not ${textDomain(plugin)}`);
    }
    const reference = path.relative(plugin.dir, file);
    if (block.title) {
      entries.push({ msgctxt: 'block title', msgid: block.title, reference });
    }
    if (block.description) {
      entries.push({ msgctxt: 'block description', msgid: block.description, reference });
    }
    for (const keyword of block.keywords ?? []) {
      entries.push({ msgctxt: 'block keyword', msgid: keyword, reference });
    }
  }
  return entries;
}

function add(translations, entry) {
  const context = entry.msgctxt ?? '';
  translations[context] ??= {};
  const existing = translations[context][entry.msgid];
  if (!existing) {
    translations[context][entry.msgid] = { ...entry, msgstr: entry.msgstr ?? [''] };
    return;
  }
  const lines = (value) => (value ? value.split('\n') : []);
  existing.comments ??= {};
  existing.comments.reference = [...new Set([...lines(existing.comments.reference), ...lines(entry.comments?.reference)])].join('\n');
  const extracted = [...new Set([...lines(existing.comments.extracted), ...lines(entry.comments?.extracted)])].join('\n');
  if (extracted) {
    existing.comments.extracted = extracted;
  }
}

/** The .pot text of one plugin. */
export function makePot(plugin) {
  if (!existsSync(path.join(plugin.dir, 'lib'))) {
    throw new Error(`${plugin.slug}: lib/ is missing; run \`npm run build\` first (its PHP strings are part of the template)`);
  }
  const translations = { '': {} };
  for (const source of [phpPot(plugin), ...scriptPots(plugin)]) {
    for (const entries of Object.values(source.translations)) {
      for (const entry of Object.values(entries)) {
        if (entry.msgid !== '') {
          add(translations, entry);
        }
      }
    }
  }
  for (const { msgctxt, msgid, reference } of blockJsonEntries(plugin)) {
    add(translations, { msgctxt, msgid, comments: { reference } });
  }
  translations[''][''] = { msgid: '', msgstr: [''] };
  return po
    .compile({
      charset: 'utf-8',
      headers: {
        'Project-Id-Version': `${header(plugin, 'Plugin Name')} ${header(plugin, 'Version')}`,
        'MIME-Version': '1.0',
        'Content-Transfer-Encoding': '8bit',
        'content-type': 'text/plain; charset=UTF-8',
        'Plural-Forms': 'nplurals=2; plural=(n != 1);',
        'X-Domain': textDomain(plugin),
      },
      translations,
    })
    .toString();
}

async function main() {
  const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
  let stale = false;
  for (const plugin of PLUGINS) {
    const file = potFile(plugin);
    const text = makePot(plugin);
    const count = (text.match(/^msgid "(?!")/gm) ?? []).length;
    const relative = path.relative(process.cwd(), file);
    if (values.check) {
      const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (current !== text) {
        stale = true;
        console.error(`i18n: ${relative} is out of date; run \`npm run i18n\``);
      } else {
        console.log(`i18n: ${relative} is up to date (${count} strings)`);
      }
      continue;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
    console.log(`i18n: ${relative}: ${count} strings`);
  }
  if (stale) {
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await main();
  } catch (error) {
    console.error(`i18n: ${error.message}`);
    process.exit(1);
  }
}
