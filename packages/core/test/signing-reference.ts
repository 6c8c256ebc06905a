/**
 * A deliberately naive reference: collect every flattened member, then sort
 * names by UTF-16 code units (ties by value), written apart from canonical.ts
 * so the tests do not check the signer against itself.
 * As JSON.stringify does, undefined and functions are skipped as object
 * members and written as null inside arrays.
 */
export function referenceCanonical(value: Record<string, unknown>): string {
  const members: [string, string][] = [];
  const walk = (node: unknown, path: string, inArray = false): void => {
    if (node === undefined || typeof node === 'function') {
      if (inArray) {
        members.push([path, '']);
      }
    } else if (Array.isArray(node)) {
      // Array.from visits holes too (forEach would skip them).
      Array.from(node as unknown[]).forEach((child, i) => walk(child, `${path}:${i}`, true));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        walk(child, path === '' ? key : `${path}:${key}`);
      }
    } else if (typeof node === 'boolean') {
      members.push([path, node ? '1' : '0']);
    } else if (node === null) {
      members.push([path, '']);
    } else {
      members.push([path, String(node)]);
    }
  };
  for (const [key, child] of Object.entries(value)) {
    if (key !== 'signature') {
      walk(child, key);
    }
  }
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  members.sort((x, y) => cmp(x[0], y[0]) || cmp(x[1], y[1]));
  return members.map(([n, v]) => `${n}:${v}`).join(';');
}
