import { test } from 'node:test';
import assert from 'node:assert/strict';
import { THEME_DEFAULTS, THEME_PROPERTIES, isValidColor, partnerCss, themeOverrides, validateTheme } from '../src/theme.js';
import { ValidationError } from '../src/validation.js';

test('the eight colour properties with the spec defaults, in order', () => {
  assert.deepEqual(
    THEME_PROPERTIES.map((t) => [t.cssVar, t.default]),
    [
      ['--primaryFill', '#6a42e9'],
      ['--primaryText', '#28334e'],
      ['--secondaryText', '#a2a9b9'],
      ['--formStrokeColor', '#e6e6eb'],
      ['--backgroundColor', '#ffffff'],
      ['--successColor', '#00d2a8'],
      ['--warningColor', '#df3e6f'],
      ['--boxShadow', 'rgba(40, 51, 78, 0.3)'],
    ],
  );
  assert.equal(THEME_DEFAULTS.boxShadow, 'rgba(40, 51, 78, 0.3)');
  for (const t of THEME_PROPERTIES) {
    assert.ok(isValidColor(t.default), t.name);
  }
});

test('colour validation', () => {
  const good = [
    '#fff',
    '#FFFF',
    '#6a42e9',
    '#6A42E980',
    'red',
    'RebeccaPurple',
    'transparent',
    ' #abc ',
    'rgb(0, 0, 0)',
    'rgba(40, 51, 78, 0.3)',
    'rgba(40,51,78,.3)',
    'rgb(100%, 0%, 50%)',
    'rgb(40 51 78)',
    'rgb(40 51 78 / 30%)',
    'rgba(255, 255, 255, 1)',
    'hsl(120, 50%, 50%)',
    'hsla(120deg, 50%, 50%, 0.5)',
    'hsl(360 100% 0% / 0.1)',
  ];
  const bad = [
    '',
    '#ff',
    '#fffff',
    '#ggg',
    'fff',
    'redd',
    'rgb(256, 0, 0)',
    'rgb(0, 0)',
    'rgb(0, 0, 0, 0, 0)',
    'rgba(0, 0, 0, 1.5)',
    'rgb(-1, 0, 0)',
    'rgb(101%, 0%, 0%)',
    'hsl(120, 50, 50)',
    'hsl(361, 50%, 50%)',
    'rgb(0 0 0 / 0.5 / 1)',
    'var(--x)',
    'red; } body { color: red',
    '#fff;',
    'url(x)',
    'rgb(0,0,0) !important',
    'currentColor',
    'inherit',
    'rgb(1e2, 0, 0)',
  ];
  for (const c of good) {
    assert.equal(isValidColor(c), true, c);
  }
  for (const c of bad) {
    assert.equal(isValidColor(c), false, c);
  }
  assert.equal(isValidColor(42 as unknown as string), false);
});

test('partner CSS has only the values set that differ from the defaults, in spec order', () => {
  assert.equal(partnerCss({}), '.widgetColor {\n}\n');
  assert.equal(
    partnerCss({
      boxShadow: 'RGBA(0, 0, 0,   0.5)',
      primaryFill: ' #FF0000 ',
      backgroundColor: '#FFFFFF', // the default: omitted
      warningColor: 'rgba(223,51,111,1)',
      successColor: '', // not set
      primaryText: null,
      secondaryText: undefined,
      formStrokeColor: 'rgba(40,51,78,0.3)',
    }),
    '.widgetColor {\n' +
      '  --primaryFill: #ff0000;\n' +
      '  --formStrokeColor: rgba(40,51,78,0.3);\n' +
      '  --warningColor: rgba(223,51,111,1);\n' +
      '  --boxShadow: rgba(0, 0, 0, 0.5);\n' +
      '}\n',
  );
  assert.equal(partnerCss({ boxShadow: 'rgba(40,51,78,0.3)' }), '.widgetColor {\n}\n', 'default in other spacing is still the default');
  assert.deepEqual(themeOverrides({ primaryFill: '#6A42E9', successColor: 'teal' }), { successColor: 'teal' });
});

test('invalid colours are refused with every problem, so nothing can be injected into the CSS', () => {
  const values = { primaryFill: 'red; } body { display: none', boxShadow: '0 0 4px black', primaryColour: '#fff' } as Record<string, string>;
  assert.deepEqual(
    validateTheme(values).map((p) => [p.field, p.rule]),
    [
      ['primaryFill', 'color'],
      ['boxShadow', 'color'],
      ['primaryColour', 'unknown_field'],
    ],
  );
  assert.throws(
    () => partnerCss(values),
    (error: unknown) => error instanceof ValidationError && error.problems.length === 3 && /primaryFill/.test(error.message),
  );
});
