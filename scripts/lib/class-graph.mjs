// The class-reference graph of the PHP (what `npm run lint:classes` checks;
// scripts/lint-classes.mjs runs it, scripts/lint-classes.json configures it).
//
// A class refers to another when its file names it: `new X`, `X::`, a type
// hint (parameter, return, property), `use` (an import, or a trait), `extends`,
// `implements`, `instanceof`, `catch (X`. Names are resolved as PHP does (the
// file's namespace and imports); only classes defined in the trees read here
// are nodes, so WordPress's and WooCommerce's classes are not.
//
// Two rules per tree (a plugin's includes/, the shared packages/php/src):
// - no loop of more than `maxComponent` classes: the strongly connected
//   components of the graph, with the tree's wiring class removed;
// - no reference from a lower room to a higher one: a room is a subfolder of
//   the tree (files at its top are the room "."), ordered lowest first in the
//   config. The shared library is below every room of a plugin (a plugin's
//   references to its copy, `<plugin namespace>\Shared\…`, always go down, and
//   the library cannot name a plugin's class), so it is checked on its own,
//   for loops only: its folders are one room.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const IDENT = '[A-Za-z_\\x80-\\uffff][A-Za-z0-9_\\x80-\\uffff]*';
const NAME = `\\\\?${IDENT}(?:\\\\${IDENT})*`;
const NOT_CLASSES = new Set(
  [
    'self',
    'static',
    'parent',
    'array',
    'callable',
    'bool',
    'float',
    'int',
    'string',
    'iterable',
    'object',
    'mixed',
    'void',
    'null',
    'never',
    'false',
    'true',
    'class',
    'function',
    'fn',
    'public',
    'private',
    'protected',
    'readonly',
    'var',
  ].map((word) => word.toLowerCase()),
);

/**
 * The PHP source with comments and string contents blanked out (newlines kept,
 * so that offsets still give line numbers): names inside them are no references.
 */
export function stripPhp(source) {
  let out = '';
  let i = 0;
  const n = source.length;
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if ((c === '/' && next === '/') || (c === '#' && next !== '[')) {
      let end = source.indexOf('\n', i);
      end = end === -1 ? n : end;
      // A one-line comment also ends at a closing tag.
      const close = source.indexOf('?>', i);
      if (close !== -1 && close < end) {
        end = close;
      }
      out += blank(source.slice(i, end));
      i = end;
    } else if (c === '/' && next === '*') {
      let end = source.indexOf('*/', i + 2);
      end = end === -1 ? n : end + 2;
      out += blank(source.slice(i, end));
      i = end;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n && source[j] !== c) {
        j += source[j] === '\\' ? 2 : 1;
      }
      out += c + blank(source.slice(i + 1, j)) + (j < n ? c : '');
      i = j + 1;
    } else if (c === '<' && source.startsWith('<<<', i)) {
      const head = /^<<<[ \t]*(["']?)(\w+)\1\r?\n/.exec(source.slice(i));
      if (!head) {
        out += c;
        i++;
        continue;
      }
      const endMark = new RegExp(`\\n[ \\t]*${head[2]}\\b`, 'g');
      endMark.lastIndex = i + head[0].length - 1;
      const found = endMark.exec(source);
      const end = found ? found.index + found[0].length : n;
      out += blank(source.slice(i, end));
      i = end;
    } else if (c === '?' && next === '>') {
      // Inline HTML up to the next opening tag.
      let end = source.indexOf('<?php', i);
      end = end === -1 ? n : end;
      out += blank(source.slice(i, end));
      i = end + (end < n ? 5 : 0);
      if (end < n) {
        out += '     ';
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const lineAt = (text, offset) => text.slice(0, offset).split('\n').length;

/** The type names of a type declaration such as `?Foo`, `A|B`, `(A&B)|null`. */
const typeNames = (type) =>
  type
    .split(/[|&?()\s]+/)
    .map((part) => part.trim())
    .filter((part) => part && new RegExp(`^${NAME}$`).test(part));

/** The parameter types of a parameter list (the text between the parentheses). */
function parameterTypes(list) {
  const types = [];
  let depth = 0;
  let start = 0;
  const params = [];
  for (let i = 0; i <= list.length; i++) {
    const c = list[i];
    if (c === '(' || c === '[') {
      depth++;
    } else if (c === ')' || c === ']') {
      depth--;
    } else if ((c === ',' && depth === 0) || i === list.length) {
      params.push(list.slice(start, i));
      start = i + 1;
    }
  }
  for (const param of params) {
    const beforeVariable = param.split('=')[0].split(/[&.]*\$/)[0];
    const words = beforeVariable.trim().split(/\s+/).filter(Boolean);
    // Constructor promotion's modifiers come first; the type is what is left.
    const type = words.filter((word) => !/^(public|private|protected|readonly)$/i.test(word)).join(' ');
    types.push(...typeNames(type));
  }
  return types;
}

/** Where the parenthesis opened at `open` closes, or -1. */
function closingParen(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') {
      depth++;
    } else if (text[i] === ')' && --depth === 0) {
      return i;
    }
  }
  return -1;
}

/**
 * One PHP file's namespace, the classes it declares and the class names it
 * refers to, resolved to fully qualified names (without the leading \), each
 * with the line it is on.
 */
export function readPhpFile(source) {
  const code = stripPhp(source);
  const namespace = (new RegExp(`\\bnamespace\\s+(${NAME})\\s*[;{]`).exec(code) || [])[1] || '';
  const imports = new Map();
  const raw = [];
  const add = (name, offset, kind) => raw.push({ name, offset, kind });

  // Brace depth at each offset tells imports (depth 0) from trait uses (in a class).
  const depthAt = [];
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    depthAt[i] = depth;
    if (code[i] === '{') {
      depth++;
    } else if (code[i] === '}') {
      depth--;
    }
  }

  for (const m of code.matchAll(/\buse\s+([^;{(]+?)\s*(\{[^}]*\})?\s*;/g)) {
    const body = m[1].trim();
    if (/^(function|const)\s/i.test(body)) {
      continue;
    }
    if (depthAt[m.index] > 0 && !m[2]) {
      // A trait used in a class body.
      for (const name of body.split(',')) {
        add(name.trim(), m.index, 'use');
      }
      continue;
    }
    const entries = m[2]
      ? m[2]
          .slice(1, -1)
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean)
          .map((part) => `${body.replace(/\\$/, '')}\\${part}`)
      : body.split(',').map((part) => part.trim());
    for (const entry of entries) {
      const [, full, alias] = /^\\?(\S+?)(?:\s+as\s+(\S+))?$/i.exec(entry) || [];
      if (!full) {
        continue;
      }
      imports.set((alias || full.split('\\').pop()).toLowerCase(), full);
      raw.push({ name: `\\${full}`, offset: m.index, kind: 'use' });
    }
  }

  const patterns = [
    [new RegExp(`\\bnew\\s+(${NAME})`, 'g'), 'new'],
    [new RegExp(`(?<![\\w\\\\$>:])(${NAME})\\s*::`, 'g'), '::'],
    [new RegExp(`\\binstanceof\\s+(${NAME})`, 'g'), 'instanceof'],
    [new RegExp(`\\bextends\\s+(${NAME})`, 'g'), 'extends'],
  ];
  for (const [pattern, kind] of patterns) {
    for (const m of code.matchAll(pattern)) {
      add(m[1], m.index, kind);
    }
  }
  for (const m of code.matchAll(/\bimplements\s+([^{]+)\{/g)) {
    for (const name of m[1].split(',')) {
      add(name.trim(), m.index, 'implements');
    }
  }
  for (const m of code.matchAll(/\bcatch\s*\(([^)$]*)/g)) {
    for (const name of typeNames(m[1])) {
      add(name, m.index, 'catch');
    }
  }
  // Functions, methods, closures and arrow functions: parameter and return types.
  for (const m of code.matchAll(new RegExp(`\\b(?:function|fn)\\s*&?\\s*(?:${IDENT})?\\s*\\(`, 'g'))) {
    const open = m.index + m[0].length - 1;
    const close = closingParen(code, open);
    if (close === -1) {
      continue;
    }
    for (const name of parameterTypes(code.slice(open + 1, close))) {
      add(name, m.index, 'type');
    }
    let rest = close + 1;
    const closureUse = /^\s*use\s*\(/.exec(code.slice(rest));
    if (closureUse) {
      rest = closingParen(code, rest + closureUse[0].length - 1) + 1;
    }
    const returned = /^\s*:\s*([^{;=]+?)\s*(?:\{|;|=>)/.exec(code.slice(rest));
    if (returned) {
      for (const name of typeNames(returned[1])) {
        add(name, rest, 'type');
      }
    }
  }
  // Typed properties.
  for (const m of code.matchAll(/\b(?:public|private|protected|var)((?:\s+(?:static|readonly))*)\s+([^$;=(]+?)\s+\$/g)) {
    if (/\bfunction\b|\bconst\b/.test(m[2])) {
      continue;
    }
    for (const name of typeNames(m[2])) {
      add(name, m.index, 'type');
    }
  }

  const resolve = (name) => {
    if (name.startsWith('\\')) {
      return name.slice(1);
    }
    if (/^namespace\\/i.test(name)) {
      return `${namespace}\\${name.slice(10)}`;
    }
    const [first, ...rest] = name.split('\\');
    const imported = imports.get(first.toLowerCase());
    if (imported) {
      return [imported, ...rest].join('\\');
    }
    return namespace ? `${namespace}\\${name}` : name;
  };

  const declared = [];
  for (const m of code.matchAll(new RegExp(`\\b(?:class|interface|trait|enum)\\s+(${IDENT})`, 'g'))) {
    // `X::class` and `new class` are no declarations.
    if (/(::|new)\s*$/.test(code.slice(Math.max(0, m.index - 8), m.index))) {
      continue;
    }
    declared.push(namespace ? `${namespace}\\${m[1]}` : m[1]);
  }

  const references = [];
  for (const { name, offset, kind } of raw) {
    if (NOT_CLASSES.has(name.replace(/^\\/, '').toLowerCase())) {
      continue;
    }
    references.push({ name: resolve(name), line: lineAt(code, offset), kind });
  }
  return { namespace, declared, references };
}

/** Every .php file under dir, as paths relative to it (with /), sorted. */
function phpFiles(dir) {
  const files = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else if (entry.name.endsWith('.php')) {
        files.push(relative(dir, path).split(sep).join('/'));
      }
    }
  };
  walk(dir);
  return files.sort();
}

/** The room of a file: its first folder under the tree, or "." at the top. */
export const roomOf = (file) => (file.includes('/') ? file.split('/')[0] : '.');

/** The strongly connected components of a graph (Map name -> Set of names), Tarjan's algorithm. */
export function stronglyConnected(graph) {
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indexOf.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) || []) {
      if (!graph.has(next)) {
        continue;
      }
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), indexOf.get(next)));
      }
    }
    if (low.get(node) === indexOf.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) {
    if (!indexOf.has(node)) {
      visit(node);
    }
  }
  return components;
}

/**
 * Reads one tree and checks it.
 *
 * tree: { dir (absolute), namespace, wiring (a class name without namespace, or
 * none), rooms (lowest first; default ["."]) }. Returns { classes, graph, loops (components larger than maxComponent),
 * roomErrors (references from a lower room to a higher one), unplacedRooms }.
 */
export function checkTree(tree, { maxComponent = 2 } = {}) {
  const files = phpFiles(tree.dir);
  const rooms = tree.rooms && tree.rooms.length ? tree.rooms : ['.'];
  const wiring = tree.wiring ? `${tree.namespace}\\${tree.wiring}` : null;

  const read = files.map((file) => ({ file, room: roomOf(file), ...readPhpFile(readFileSync(join(tree.dir, file), 'utf8')) }));
  const classRoom = new Map();
  const classFile = new Map();
  for (const { declared, room } of read) {
    for (const name of declared) {
      classRoom.set(name.toLowerCase(), room);
      classFile.set(name.toLowerCase(), name);
    }
  }

  const graph = new Map();
  const roomErrors = [];
  for (const { file, room, declared, references } of read) {
    for (const from of declared) {
      if (from === wiring) {
        continue;
      }
      const edges = graph.get(from) || new Set();
      graph.set(from, edges);
      for (const ref of references) {
        const key = ref.name.toLowerCase();
        if (!classRoom.has(key)) {
          continue;
        }
        const to = classFile.get(key);
        if (to === from || to === wiring) {
          continue;
        }
        edges.add(to);
        const toRoom = classRoom.get(key);
        const fromRank = rooms.indexOf(room);
        const toRank = rooms.indexOf(toRoom);
        if (fromRank !== -1 && toRank !== -1 && toRank > fromRank) {
          roomErrors.push({ file, line: ref.line, from, fromRoom: room, to, toRoom });
        }
      }
    }
  }
  const unplacedRooms = [...new Set(read.map(({ room }) => room))].filter((room) => !rooms.includes(room)).sort();
  const loops = stronglyConnected(graph).filter((component) => component.length > maxComponent);
  const classes = read.flatMap(({ declared }) => declared);
  return { classes, graph, loops, roomErrors, unplacedRooms };
}

/** The short name of a class (what a reader looks for in the folder). */
export const shortName = (name) => name.split('\\').pop();

/**
 * Checks every tree of a config ({ maxComponent, shared: tree, plugins: [tree
 * with `enforce`] }, dirs relative to root). Returns { ok, lines }: ok is false
 * when an enforced tree breaks a rule; lines say what was found in each tree.
 */
export function checkAll(root, config) {
  const lines = [];
  let ok = true;
  const maxComponent = config.maxComponent ?? 2;
  const trees = [];
  if (config.shared) {
    const result = checkTree({ ...config.shared, dir: join(root, config.shared.dir), rooms: ['.'] }, { maxComponent });
    trees.push({ tree: { ...config.shared, enforce: true }, result, sharedRooms: true });
  }
  for (const plugin of config.plugins || []) {
    trees.push({ tree: plugin, result: checkTree({ ...plugin, dir: join(root, plugin.dir) }, { maxComponent }) });
  }
  for (const { tree, result, sharedRooms } of trees) {
    const enforced = tree.enforce !== false;
    const problems = [];
    for (const loop of result.loops) {
      problems.push(`a loop of ${loop.length} classes: ${loop.map(shortName).join(', ')}`);
    }
    if (tree.wiring && !result.classes.includes(`${tree.namespace}\\${tree.wiring}`)) {
      problems.push(`the wiring class ${tree.wiring} is not declared here (the config names it: rename it there too)`);
    }
    if (!sharedRooms) {
      for (const room of result.unplacedRooms) {
        problems.push(`the room "${room}" has no place in the order of rooms (${tree.rooms && tree.rooms.length ? tree.rooms.join(', ') : '.'})`);
      }
      for (const e of result.roomErrors) {
        problems.push(`${e.file}:${e.line}: ${shortName(e.from)} (room ${e.fromRoom}) refers to ${shortName(e.to)} in the higher room ${e.toRoom}`);
      }
    }
    const status = problems.length === 0 ? 'clean' : enforced ? 'FAILED' : 'reported, not enforced';
    lines.push(`${tree.dir}: ${result.classes.length} ${result.classes.length === 1 ? 'class' : 'classes'}, ${status}`);
    for (const problem of problems) {
      lines.push(`  ${problem}`);
    }
    if (problems.length && enforced) {
      ok = false;
    }
  }
  return { ok, lines };
}
