// The class-loop check of `npm run lint` (scripts/lint-classes.mjs) on small
// fixture trees: which names count as references, loops with and without the
// wiring class, rooms, and the switch that reports without failing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { checkTree, readPhpFile, stronglyConnected } from '../lib/class-graph.mjs';

const SCRIPT = fileURLToPath(new URL('../lint-classes.mjs', import.meta.url));
const made = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A folder with the given files ({ 'Room/A.php': source }). */
function tree(files) {
  const dir = mkdtempSync(join(tmpdir(), 'c2c-classes-'));
  made.push(dir);
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), source);
  }
  return dir;
}

/** A class of namespace Fx that names `uses` (PHP lines in a method body). */
const php = (name, body = '', head = '') => `<?php\nnamespace Fx;\n${head}\nfinal class ${name} {\n\tpublic function run(): void {\n${body}\n\t}\n}\n`;

describe('the references a PHP file makes', () => {
  test('every kind of class name, resolved through the namespace and the imports', () => {
    const source = `<?php
/**
 * Uses Commented_Out::thing() and new Commented_Out() in a comment.
 */
namespace Fx\\Inner;

use Fx\\Other\\Imported;
use Fx\\Other\\Long_Name as Alias;
use Fx\\Grouped\\{ First, Second as Renamed };
use function Fx\\helper;

final class Sample extends Base implements Contract, \\Fx\\Outside\\Marker {
	use Some_Trait;

	private ?Typed_Property $typed;
	private static $untyped = 'new In_A_String()';

	public function __construct( private readonly Promoted $promoted ) {}

	public static function make( Param_Type $a, ?Nullable $b = null, Union_A|Union_B $c = array(), int $d = 0, Variadic ...$rest ): Return_Type {
		$x = new Created();
		$y = Statics::call( Imported::CONSTANT, Alias::class );
		$z = $x instanceof Checked;
		$f = function ( Closure_Param $p ) use ( $x ): Closure_Return { return $p; };
		$g = fn( Arrow_Param $q ): Arrow_Return => $q;
		$h = new \\WP_Error( 'x', "new In_Double_Quotes()" );
		// new Line_Comment()
		# Hash_Comment::x()
		try {
			self::make( First::X, Renamed::Y, static::$untyped, parent::class );
		} catch ( Caught_A | \\Fx\\Caught_B $e ) {
			return new self();
		}
	}
}
`;
    const file = readPhpFile(source);
    assert.equal(file.namespace, 'Fx\\Inner');
    assert.deepEqual(file.declared, ['Fx\\Inner\\Sample']);
    const names = new Set(file.references.map((r) => r.name));
    const inner = (n) => `Fx\\Inner\\${n}`;
    for (const expected of [
      'Fx\\Other\\Imported',
      'Fx\\Other\\Long_Name',
      'Fx\\Grouped\\First',
      'Fx\\Grouped\\Second',
      inner('Base'),
      inner('Contract'),
      'Fx\\Outside\\Marker',
      inner('Some_Trait'),
      inner('Typed_Property'),
      inner('Promoted'),
      inner('Param_Type'),
      inner('Nullable'),
      inner('Union_A'),
      inner('Union_B'),
      inner('Variadic'),
      inner('Return_Type'),
      inner('Created'),
      inner('Statics'),
      inner('Checked'),
      inner('Closure_Param'),
      inner('Closure_Return'),
      inner('Arrow_Param'),
      inner('Arrow_Return'),
      'WP_Error',
      inner('Caught_A'),
      'Fx\\Caught_B',
    ]) {
      assert.ok(names.has(expected), `${expected} is a reference (found: ${[...names].join(', ')})`);
    }
    for (const absent of ['Commented_Out', 'In_A_String', 'In_Double_Quotes', 'Line_Comment', 'Hash_Comment', 'helper', 'self', 'static', 'parent']) {
      assert.ok(![...names].some((n) => n.split('\\').pop() === absent), `${absent} is no reference`);
    }
    // Imports resolve to what they import: no Fx\Inner\Alias or Fx\Inner\Renamed.
    assert.ok(![...names].some((n) => /\\(Alias|Renamed)$/.test(n)));
    assert.equal(file.references.find((r) => r.name === inner('Created')).line, 21);
  });
});

describe('loops of classes', () => {
  test('a loop of three classes is named; a pair that names each other is not a loop', () => {
    const dir = tree({
      'A.php': php('A', '\t\tB::run();'),
      'B.php': php('B', '\t\tnew C();'),
      'C.php': php('C', '\t\t$a instanceof A;'),
      'D.php': php('D', '\t\tE::run();'),
      'E.php': php('E', '\t\tD::run();'),
      'F.php': php('F', '\t\tA::run(); D::run();'),
    });
    const result = checkTree({ dir, namespace: 'Fx', wiring: 'Plugin' });
    assert.deepEqual(result.loops, [['Fx\\A', 'Fx\\B', 'Fx\\C']]);
    assert.deepEqual(result.roomErrors, []);
  });

  test('a loop that only runs through the wiring class is none', () => {
    const dir = tree({
      'Plugin.php': php('Plugin', '\t\tnew A(); new B();'),
      'A.php': php('A', '\t\tB::run();'),
      'B.php': php('B', '\t\tC::run();'),
      'C.php': php('C', '\t\tPlugin::settings();'),
    });
    assert.deepEqual(checkTree({ dir, namespace: 'Fx', wiring: 'Plugin' }).loops, []);
    // Counted as a class like any other, it closes the loop.
    assert.deepEqual(checkTree({ dir, namespace: 'Fx' }).loops, [['Fx\\A', 'Fx\\B', 'Fx\\C', 'Fx\\Plugin']]);
  });

  test('components of a graph', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['a', 'c'])],
      ['c', new Set(['d'])],
      ['d', new Set(['c', 'outside'])],
      ['e', new Set()],
    ]);
    assert.deepEqual(stronglyConnected(graph).sort(), [['a', 'b'], ['c', 'd'], ['e']]);
  });
});

describe('rooms', () => {
  const files = {
    'Plugin.php': php('Plugin', '\t\tnew Order\\Panel();'),
    'Constants/Ids.php': php('Ids').replace('namespace Fx;', 'namespace Fx\\Constants;'),
    'Order/Panel.php': php('Panel', '\t\tIds::X;', 'use Fx\\Constants\\Ids;').replace('namespace Fx;', 'namespace Fx\\Order;'),
    'Order/Words.php': php('Words', '\t\tnew \\Fx\\Buyer\\Notice();').replace('namespace Fx;', 'namespace Fx\\Order;'),
    'Buyer/Notice.php': php('Notice', '\t\tnew \\Fx\\Order\\Panel();').replace('namespace Fx;', 'namespace Fx\\Buyer;'),
  };

  test('a reference to a higher room is named with its file and line; to the same or a lower room it is allowed', () => {
    const dir = tree(files);
    const result = checkTree({ dir, namespace: 'Fx', wiring: 'Plugin', rooms: ['Constants', 'Order', 'Buyer', '.'] });
    assert.deepEqual(result.unplacedRooms, []);
    assert.deepEqual(
      result.roomErrors.map(({ file, line, fromRoom, toRoom }) => ({ file, line, fromRoom, toRoom })),
      [{ file: 'Order/Words.php', line: 6, fromRoom: 'Order', toRoom: 'Buyer' }],
    );
  });

  test('a folder missing from the order is named', () => {
    const dir = tree(files);
    assert.deepEqual(checkTree({ dir, namespace: 'Fx', wiring: 'Plugin', rooms: ['Constants', 'Order'] }).unplacedRooms, ['.', 'Buyer']);
  });
});

describe('npm run lint:classes', () => {
  const run = (root, config) => {
    const configFile = join(root, 'config.json');
    writeFileSync(configFile, JSON.stringify(config));
    return spawnSync(process.execPath, [SCRIPT, '--root', root, '--config', configFile], { encoding: 'utf8' });
  };
  const loopRoot = () =>
    tree({
      'shared/Lib.php': php('Lib').replace('namespace Fx;', 'namespace Shared;'),
      'looped/includes/A.php': php('A', '\t\tB::run();'),
      'looped/includes/B.php': php('B', '\t\tC::run();'),
      'looped/includes/C.php': php('C', '\t\tA::run();'),
      'clean/includes/Plugin.php': php('Plugin', '\t\tnew A();'),
      'clean/includes/A.php': php('A', '\t\tB::run();'),
      'clean/includes/B.php': php('B', '\t\tPlugin::run();'),
    });
  const plugin = (name, enforce) => ({ dir: `${name}/includes`, namespace: 'Fx', wiring: 'Plugin', rooms: ['.'], enforce });
  const shared = { dir: 'shared', namespace: 'Shared' };

  test('fails on a loop in an enforced plugin, naming its classes', () => {
    const result = run(loopRoot(), { maxComponent: 2, shared, plugins: [plugin('clean', true), plugin('looped', true)] });
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /looped\/includes: 3 classes, FAILED\n {2}a loop of 3 classes: A, B, C/);
    assert.match(result.stdout, /clean\/includes: 3 classes, clean/);
    assert.match(result.stdout, /shared: 1 class, clean/);
  });

  test('reports the loop of a plugin that is not enforced, and passes', () => {
    const result = run(loopRoot(), { maxComponent: 2, shared, plugins: [plugin('clean', true), plugin('looped', false)] });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /looped\/includes: 3 classes, reported, not enforced\n {2}a loop of 3 classes: A, B, C/);
  });

  test('fails when a plugin under plugins/ is missing from the config', () => {
    const root = tree({
      'plugins/listed/includes/A.php': php('A'),
      'plugins/forgotten/includes/B.php': php('B'),
    });
    const result = run(root, {
      maxComponent: 2,
      plugins: [{ dir: 'plugins/listed/includes', namespace: 'Fx', wiring: 'Plugin', rooms: ['.'], enforce: true }],
    });
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /plugins\/forgotten\/includes: not checked: list it under "plugins"/);
    // The listed plugin has no Plugin class: the config's wiring name is out of date.
    assert.match(result.stdout, /the wiring class Plugin is not declared here/);
  });

  test("passes on this repository's plugins, both enforced, the checkout in its rooms", () => {
    const result = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /plugins\/widget\/includes: \d+ classes, clean/);
    assert.match(result.stdout, /plugins\/checkout\/includes: \d+ classes, clean/);
    const config = JSON.parse(readFileSync(new URL('../lint-classes.json', import.meta.url), 'utf8'));
    const checkout = config.plugins.find((p) => p.dir === 'plugins/checkout/includes');
    assert.equal(checkout.enforce, true);
    assert.ok(checkout.rooms.length > 5, 'the checkout is split into rooms');
  });
});
