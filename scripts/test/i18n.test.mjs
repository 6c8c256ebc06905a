// Each plugin's translation template (plugins/<plugin>/languages/<domain>.pot,
// written by `npm run i18n`): every translatable string of the plugin's PHP
// and scripts is in it, found here by an extraction of its own (a scanner of
// gettext calls, not the tools that wrote the .pot); every call names the
// plugin's own text domain; no other plugin's strings or domain are in it;
// and the committed file is what `npm run i18n` writes now.
// Needs `npm run build` first (lib/ holds PHP strings of the template).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import gettextParser from 'gettext-parser';
import { DOMAIN_ARGUMENT, makePot, phpSources, potFile, scriptSources, textDomain } from '../i18n.mjs';
import { PLUGINS, ROOT } from '../lib/paths.mjs';

/** Position of the context argument of the functions that take one. */
const CONTEXT_ARGUMENT = { _x: 1, _ex: 1, esc_html_x: 1, esc_attr_x: 1, _nx: 3, _nx_noop: 2 };
const CALL = new RegExp(`(?<![\\w$>:])(${Object.keys(DOMAIN_ARGUMENT).join('|')})\\s*\\(`, 'g');

/** The source of a quoted literal, unquoted ('it\\'s' -> it's), or undefined when the argument is not a plain literal. */
function literal(source, php) {
  const text = source.trim();
  const quote = text[0];
  if ((quote !== "'" && quote !== '"') || text.at(-1) !== quote) {
    return undefined;
  }
  const body = text.slice(1, -1);
  if (php && quote === "'") {
    return body.replace(/\\([\\'])/g, '$1');
  }
  return body.replace(/\\(u\{?[0-9a-fA-F]+\}?|.)/g, (_, escape) => {
    if (escape[0] === 'u') {
      return String.fromCodePoint(parseInt(escape.replace(/[u{}]/g, ''), 16));
    }
    return { n: '\n', t: '\t', r: '\r' }[escape] ?? escape;
  });
}

/** Top-level arguments of the call whose "(" is at `open` (strings and nested brackets skipped). */
function callArguments(code, open) {
  const args = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < code.length && code[i] !== c; i++) {
        if (code[i] === '\\') {
          i++;
        }
      }
    } else if (c === '(' || c === '[' || c === '{') {
      depth++;
    } else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        args.push(code.slice(start, i));
        return args;
      }
    } else if (c === ',' && depth === 1) {
      args.push(code.slice(start, i));
      start = i + 1;
    }
  }
  throw new Error(`unclosed call at ${open}`);
}

/** The code with its comments blanked (line breaks kept, so line numbers hold); strings untouched. */
function withoutComments(code, php) {
  let out = '';
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if (c === "'" || c === '"' || c === '`') {
      const start = i;
      for (i++; i < code.length && code[i] !== c; i++) {
        if (code[i] === '\\') {
          i++;
        }
      }
      out += code.slice(start, i + 1);
    } else if (code.startsWith('/*', i)) {
      const end = code.indexOf('*/', i + 2);
      const stop = end === -1 ? code.length : end + 2;
      out += code.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop - 1;
    } else if (code.startsWith('//', i) || (php && c === '#' && code[i + 1] !== '[')) {
      const end = code.indexOf('\n', i);
      const stop = end === -1 ? code.length : end;
      out += ' '.repeat(stop - i);
      i = stop - 1;
    } else {
      out += c;
    }
  }
  return out;
}

/** Every gettext call of a file: function, msgid, context, domain (undefined where not a literal), line. */
function gettextCalls(file) {
  const php = file.endsWith('.php');
  const code = withoutComments(readFileSync(file, 'utf8'), php);
  const calls = [];
  for (const match of code.matchAll(CALL)) {
    const name = match[1];
    const args = callArguments(code, match.index + match[0].length - 1);
    const line = code.slice(0, match.index).split('\n').length;
    const at = `${path.relative(ROOT, file)}:${line}`;
    const msgid = literal(args[0] ?? '', php);
    const context = name in CONTEXT_ARGUMENT ? literal(args[CONTEXT_ARGUMENT[name]] ?? '', php) : '';
    calls.push({ name, msgid, context, domain: literal(args[DOMAIN_ARGUMENT[name]] ?? '', php), at });
  }
  return calls;
}

const schema = JSON.parse(readFileSync(path.join(ROOT, 'packages/core/schema/settings.json'), 'utf8'));
/** Every text of one plugin's part of the settings schema. */
function schemaTexts(key) {
  const plugin = schema.plugins[key];
  const texts = new Set([plugin.title, ...plugin.groups.map((g) => g.label)]);
  for (const field of plugin.fields) {
    for (const text of [field.label, field.help, field.rule?.patternMessage, ...(field.options ?? []).map((o) => o.label)]) {
      if (text) {
        texts.add(text);
      }
    }
  }
  return texts;
}

for (const plugin of PLUGINS) {
  const domain = textDomain(plugin);
  const others = PLUGINS.filter((p) => p !== plugin);
  const potText = readFileSync(potFile(plugin), 'utf8');
  const pot = gettextParser.po.parse(potText).translations;
  const inPot = (msgid, context = '') => Boolean(pot[context]?.[msgid]);
  const calls = [...phpSources(plugin), ...scriptSources(plugin)].flatMap(gettextCalls);

  describe(`${plugin.slug} translation template`, () => {
    test('the scanner finds the PHP and the script strings (it is not looking at nothing)', () => {
      assert.ok(calls.filter((c) => /\.php:\d+$/.test(c.at)).length > 50);
      if (plugin.key === 'widget') {
        assert.ok(calls.filter((c) => /\/src\/.*\.tsx?:\d+$/.test(c.at)).length >= 25);
      }
    });

    test(`every gettext call names '${domain}' as a literal`, () => {
      const wrong = calls.filter((c) => c.domain !== domain).map((c) => `${c.at}: ${c.name}() with domain ${c.domain ?? '(not a literal)'}`);
      assert.deepEqual(wrong, []);
    });

    test('every translatable string of the PHP and the scripts is in the .pot', () => {
      const literalCalls = calls.filter((c) => c.msgid !== undefined);
      // Only the shared library translates texts it is given: the settings schema's, each also
      // written literally into lib/i18n-schema-strings.php (checked below).
      assert.deepEqual(
        calls.filter((c) => c.msgid === undefined && !c.at.includes('/lib/shared/')).map((c) => `${c.at}: ${c.name}() whose text is not a literal`),
        [],
      );
      const missing = literalCalls.filter((c) => !inPot(c.msgid, c.context)).map((c) => `${c.at}: ${JSON.stringify(c.msgid)}`);
      assert.deepEqual(missing, []);
    });

    test("the plugin header and the block titles are in it, in WordPress's contexts", () => {
      const main = readFileSync(path.join(plugin.dir, plugin.main), 'utf8');
      assert.ok(inPot(/Plugin Name:\s*(.+)/.exec(main)[1].trim()));
      assert.ok(inPot(/Description:\s*(.+)/.exec(main)[1].trim()));
      if (plugin.key === 'widget') {
        assert.ok(inPot('Crypto purchase widget', 'block title'));
        assert.ok(inPot('crypto', 'block keyword'));
      }
    });

    test("its own settings' labels are in it; no other plugin's settings texts or text domain are", () => {
      const own = schemaTexts(plugin.key);
      assert.deepEqual(
        [...own].filter((text) => !inPot(text)),
        [],
      );
      const sourceTexts = new Set(calls.map((c) => c.msgid));
      for (const other of others) {
        assert.ok(!potText.includes(textDomain(other)), `${textDomain(other)} appears in ${path.relative(ROOT, potFile(plugin))}`);
        const foreign = [...schemaTexts(other.key)].filter((text) => !own.has(text) && !sourceTexts.has(text));
        assert.ok(foreign.length > 0, 'the other plugin has settings texts of its own to look for');
        assert.deepEqual(
          foreign.filter((text) => inPot(text)),
          [],
        );
      }
    });

    test('the committed .pot is what `npm run i18n` writes now', () => {
      assert.equal(potText, makePot(plugin), `run \`npm run i18n\` and commit ${path.relative(ROOT, potFile(plugin))}`);
    });
  });
}
