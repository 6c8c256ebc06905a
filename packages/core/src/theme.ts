/**
 * Widget colours: the eight CSS custom properties the widget reads from the
 * class `widgetColor` in the partner CSS file (spec: "Widget colour settings"),
 * colour validation, and generation of that CSS file.
 */
import { type Problem, ValidationError, problem } from './validation.js';

export type ThemeColorName =
  'primaryFill' | 'primaryText' | 'secondaryText' | 'formStrokeColor' | 'backgroundColor' | 'successColor' | 'warningColor' | 'boxShadow';

export interface ThemeProperty {
  readonly name: ThemeColorName;
  /** The CSS custom property, e.g. `--primaryFill`. */
  readonly cssVar: `--${ThemeColorName}`;
  /** Short label for settings pages. */
  readonly label: string;
  /** What the colour affects, as the spec says. */
  readonly affects: string;
  readonly default: string;
}

export type ThemeValues = Partial<Record<ThemeColorName, string | null | undefined>>;

const p = (name: ThemeColorName, label: string, affects: string, def: string): ThemeProperty =>
  Object.freeze({ name, cssVar: `--${name}` as const, label, affects, default: def });

/** In the spec's order. */
export const THEME_PROPERTIES: readonly ThemeProperty[] = Object.freeze([
  p('primaryFill', 'Primary colour', 'Large buttons, back arrow, cross, links, chosen line in the currency list', '#6a42e9'),
  p('primaryText', 'Main text colour', 'Amount, currency short name, menu button, menu items, window name', '#28334e'),
  p('secondaryText', 'Secondary text colour', 'Field names, placeholders, additional text, currency names', '#a2a9b9'),
  p('formStrokeColor', 'Border colour', 'Borders', '#e6e6eb'),
  p('backgroundColor', 'Background colour', 'Background', '#ffffff'),
  p('successColor', 'Success colour', 'Verification status icon', '#00d2a8'),
  p('warningColor', 'Warning colour', 'Session timeout icon', '#df3e6f'),
  p('boxShadow', 'Shadow colour', 'Widget shadow and edit shadow (RGBA recommended for transparency)', 'rgba(40, 51, 78, 0.3)'),
]);

export const THEME_DEFAULTS: Readonly<Record<ThemeColorName, string>> = Object.freeze(
  Object.fromEntries(THEME_PROPERTIES.map((t) => [t.name, t.default])) as Record<ThemeColorName, string>,
);

const THEME_NAMES = new Set<string>(THEME_PROPERTIES.map((t) => t.name));

/** CSS named colours (CSS Color 4) plus `transparent`. */
const NAMED_COLORS = new Set(
  (
    'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown burlywood ' +
    'cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray ' +
    'darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen ' +
    'darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue ' +
    'firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew ' +
    'hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan ' +
    'lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
    'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue ' +
    'mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred ' +
    'midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid ' +
    'palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum powderblue purple ' +
    'rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue ' +
    'slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white ' +
    'whitesmoke yellow yellowgreen transparent'
  ).split(' '),
);

const HEX_RE = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/;
const FUNC_RE = /^(rgba?|hsla?)\((.*)\)$/;
const NUMBER_RE = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

/** Trim, lower-case and collapse inner whitespace: the form written into the CSS file. */
export function normalizeColor(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * True for a CSS colour the widget can use: hex (#rgb, #rgba, #rrggbb,
 * #rrggbbaa), rgb()/rgba() and hsl()/hsla() in comma or space syntax with
 * in-range components, or a CSS named colour. Case-insensitive. Anything else
 * (including `var()`, `;`, `}`) is rejected, so a value can never break out of
 * its declaration in the generated CSS.
 */
export function isValidColor(value: string): boolean {
  if (typeof value !== 'string') {
    return false;
  }
  const v = normalizeColor(value);
  if (HEX_RE.test(v) || NAMED_COLORS.has(v)) {
    return true;
  }
  const m = FUNC_RE.exec(v);
  if (!m) {
    return false;
  }
  const fn = m[1]!;
  const parts = splitArguments(m[2]!);
  if (!parts || (parts.length !== 3 && parts.length !== 4)) {
    return false;
  }
  const [a, b, c, alpha] = parts as [string, string, string, string | undefined];
  if (alpha !== undefined && !inRange(alpha, 1, true)) {
    return false;
  }
  if (fn.startsWith('rgb')) {
    return [a, b, c].every((x) => inRange(x, 255, true));
  }
  return isHue(a) && isPercent(b) && isPercent(c);
}

/** Comma syntax `a, b, c[, alpha]` or space syntax `a b c[ / alpha]`. */
function splitArguments(args: string): string[] | null {
  const text = args.trim();
  if (text.includes(',')) {
    return text.split(',').map((x) => x.trim());
  }
  const [main, alpha, extra] = text.split('/').map((x) => x.trim());
  if (extra !== undefined || main === undefined || main === '') {
    return null;
  }
  const parts = main.split(' ');
  if (parts.length !== 3) {
    return null;
  }
  if (alpha !== undefined) {
    parts.push(alpha);
  }
  return parts;
}

/** A plain number in [0, max], or (when allowed) a percentage in [0%, 100%]. */
function inRange(x: string, max: number, percentAllowed: boolean): boolean {
  if (x.endsWith('%')) {
    return percentAllowed && isPercent(x);
  }
  return NUMBER_RE.test(x) && Number(x) <= max;
}

function isPercent(x: string): boolean {
  return x.endsWith('%') && NUMBER_RE.test(x.slice(0, -1)) && Number(x.slice(0, -1)) <= 100;
}

function isHue(x: string): boolean {
  const n = x.endsWith('deg') ? x.slice(0, -3) : x;
  return NUMBER_RE.test(n) && Number(n) <= 360;
}

/** Every problem with a set of theme values: unknown names, non-string or invalid colours. Empty values are allowed (= default). */
export function validateTheme(values: ThemeValues): Problem[] {
  const problems: Problem[] = [];
  for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
    if (!THEME_NAMES.has(name)) {
      problems.push(problem(name, 'unknown_field', `"${name}" is not a widget colour; expected one of ${[...THEME_NAMES].join(', ')}.`));
    } else if (value === undefined || value === null || value === '') {
      continue;
    } else if (typeof value !== 'string' || !isValidColor(value)) {
      problems.push(problem(name, 'color', `${name} must be a CSS colour such as #6a42e9, rgba(40, 51, 78, 0.3) or a colour name.`));
    }
  }
  return problems;
}

/**
 * The values that need writing: set (non-empty) and different from the
 * widget's default after normalisation. Throws ValidationError on invalid input.
 */
export function themeOverrides(values: ThemeValues): Partial<Record<ThemeColorName, string>> {
  const problems = validateTheme(values);
  if (problems.length > 0) {
    throw new ValidationError('Invalid widget colours', problems);
  }
  const out: Partial<Record<ThemeColorName, string>> = {};
  for (const t of THEME_PROPERTIES) {
    const value = values[t.name];
    if (value === undefined || value === null || value === '') {
      continue;
    }
    const normalized = normalizeColor(value);
    if (normalized.replace(/ /g, '') === t.default.replace(/ /g, '')) {
      continue;
    }
    out[t.name] = normalized;
  }
  return out;
}

/**
 * The partner CSS file (referenced by the widget setting `partner_css`), with a
 * declaration only for each colour that is set and differs from the default,
 * in the spec's order:
 *
 *     .widgetColor {
 *       --primaryFill: #ff0000;
 *     }
 *
 * With nothing to override the rule is empty; callers may then omit partner_css.
 */
export function partnerCss(values: ThemeValues): string {
  const overrides = themeOverrides(values);
  const lines = THEME_PROPERTIES.filter((t) => overrides[t.name] !== undefined).map((t) => `  ${t.cssVar}: ${overrides[t.name]};\n`);
  return `.widgetColor {\n${lines.join('')}}\n`;
}
