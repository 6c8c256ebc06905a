/** A deterministic pseudo-random source for tests (xorshift32: its low bits are as random as its high ones). */
export function random(seed: number): (n: number) => number {
  return (n) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
}
