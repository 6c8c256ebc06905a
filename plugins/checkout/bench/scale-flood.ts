/**
 * Scale section 6: a flood from many addresses (issue 33, point 5). The store
 * is set up as behind its own proxy: its client-address header setting
 * ("trust_proxy_header", Callback/Client_Address.php) names X-Forwarded-For,
 * so each simulated client is an address of its own, as a botnet or a crowd
 * behind a proxy would be. The sandbox keeps its partner limit (20 requests a
 * second, the partner API's own).
 *
 * For each of 8 and 32 addresses (BENCH_FLOOD_ADDRESSES): each address
 * places an order of its own (before the flood, not timed), then follows its
 * order's landing link again and again, one request after another, for
 * BENCH_FLOOD_SECONDS (20 s), each request a new signing of the order's
 * payment for the service,
 * while 10 honest buyers (BENCH_FLOOD_BUYERS), each at an address of their
 * own, arrive spread over the flood: each places an order through the Store
 * API and follows its landing link once.
 *
 * Goals: the sandbox answered the store 0 times with 429 (its count of
 * refusals, before and after); every honest buyer reached the service's
 * landing page (10/10). Printed beside them: the flood's requests and how
 * they were answered, the store's peak partner API requests in one second,
 * the service calls per flood request, and a fresh order's first landing and
 * a reuse, counted by the sandbox.
 */
import { parseLandingUrl } from '@card2crypto/core';
import { callsByEndpoint, diffCalls, placeOrderLink, type Goals, type Store } from './lib.js';
import { serviceRate } from '../test/support/reconcile-store.js';

const G = '6 flood';

/** A client at `address` (the store trusts X-Forwarded-For: its last entry is the client). */
const as = (address: string) => ({ 'X-Forwarded-For': address });

async function placeAs(s: Store, address: string): Promise<string> {
  // placeOrderLink() sends X-C2C-Bench-Clients too; the flood's store trusts the header by its own setting, so it changes nothing here.
  return placeOrderLink(s, address);
}

/** Follows a landing link once: "landing" when sent to the service's landing page, else the answer in a few words. */
async function follow(link: string, address: string): Promise<string> {
  try {
    const r = await fetch(link, { redirect: 'manual', headers: as(address) });
    await r.arrayBuffer();
    const to = r.headers.get('location') ?? '';
    if (parseLandingUrl(to).ok) {
      return 'landing';
    }
    const told = to ? new URL(to, link).searchParams.get('card2crypto-told') : null;
    return `${r.status}${told ? ` told ${told}` : to ? ` to ${new URL(to, link).pathname}` : ''}`;
  } catch (error) {
    return `network error: ${(error as Error).message}`;
  }
}

export async function floodFromAddresses(s: Store, setOption: (php: string) => Promise<void>, goals: Goals): Promise<void> {
  const seconds = Number(process.env.BENCH_FLOOD_SECONDS ?? 15);
  const buyers = Number(process.env.BENCH_FLOOD_BUYERS ?? 10);
  const sizes = (process.env.BENCH_FLOOD_ADDRESSES ?? '8,32').split(',').map(Number);
  console.log(
    `\n== Scale 6: a flood of landing routes from ${sizes.join(' and ')} addresses, each its own order (X-Forwarded-For, trusted by the store's setting), ` +
      `${seconds} s each, ${buyers} honest buyers paying meanwhile; the sandbox's partner limit 20 a second ==`,
  );
  await setOption(
    "$o = get_option( 'woocommerce_card2crypto_settings' ); $o['trust_proxy_header'] = 'X-Forwarded-For'; update_option( 'woocommerce_card2crypto_settings', $o );",
  );

  // A fresh order's first landing and a reuse of it, alone (service calls each).
  {
    const link = await placeAs(s, '198.51.100.10');
    let before = await callsByEndpoint(s);
    const first = await follow(link, '198.51.100.10');
    const fresh = diffCalls(await callsByEndpoint(s), before);
    before = await callsByEndpoint(s);
    const again = await follow(link, '198.51.100.10');
    const reuse = diffCalls(await callsByEndpoint(s), before);
    console.log(`a fresh order's first landing: ${first}, calls ${fresh.text}; the same link again: ${again}, calls ${reuse.text}`);
    goals.add(G, "service calls, a fresh order's first landing", String(fresh.total), '<= 2', fresh.total <= 2);
    goals.add(G, 'service calls, the same landing link again', String(reuse.total), '<= 1', reuse.total <= 1);
  }

  for (const [round, addresses] of sizes.entries()) {
    // Addresses of the round's own: no budget of an earlier round carries over.
    const floodAddress = (c: number) => `10.${33 + round}.${Math.floor(c / 250)}.${(c % 250) + 1}`;
    const buyerAddress = (i: number) => `203.0.${113 + round}.${i + 1}`;
    // Each flooding address with an order of its own (so no one order's budget stops them all), 8 placed at once.
    const orders: string[] = [];
    for (let c = 0; c < addresses; c += 8) {
      orders.push(...(await Promise.all(Array.from({ length: Math.min(8, addresses - c) }, (_, j) => placeAs(s, floodAddress(c + j))))));
    }
    // A second apart from what came before, so the partner's one-second window starts clean.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const rateBefore = await serviceRate(s);
    const callsBefore = await callsByEndpoint(s);
    const perSecond = new Map<number, number>();
    const started = Date.now();
    const stopAt = started + seconds * 1000;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        for (const [second, n] of (await serviceRate(s)).recent) {
          if (second >= started - 1000) {
            perSecond.set(second, n);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    const floodAnswers = new Map<string, number>();
    const flood = Promise.all(
      Array.from({ length: addresses }, async (_, c) => {
        let n = 0;
        while (Date.now() < stopAt) {
          const what = await follow(orders[c]!, floodAddress(c));
          floodAnswers.set(what, (floodAnswers.get(what) ?? 0) + 1);
          n++;
        }
        return n;
      }),
    );
    const honest = Promise.all(
      Array.from({ length: buyers }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, ((seconds * 1000) / (buyers + 1)) * (i + 1) - 1000));
        const t0 = performance.now();
        try {
          const link = await placeAs(s, buyerAddress(i));
          const what = await follow(link, buyerAddress(i));
          return { what, ms: performance.now() - t0 };
        } catch (error) {
          return { what: `placing failed: ${(error as Error).message.slice(0, 160)}`, ms: performance.now() - t0 };
        }
      }),
    );
    const [sent, paid] = await Promise.all([flood, honest]);
    sampling = false;
    await sampler;
    const wall = (Date.now() - started) / 1000;
    // The store's calls may still be arriving (a request in flight when the flood stopped): a last reading a moment later.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (const [second, n] of (await serviceRate(s)).recent) {
      if (second >= started - 1000) {
        perSecond.set(second, n);
      }
    }
    const rateAfter = await serviceRate(s);
    const calls = diffCalls(await callsByEndpoint(s), callsBefore);
    const limited = rateAfter.limited - rateBefore.limited;
    const requests = sent.reduce((a, b) => a + b, 0);
    const reached = paid.filter((p) => p.what === 'landing').length;
    const peak = Math.max(0, ...perSecond.values());
    console.log(`\n-- ${addresses} addresses: ${requests} flood requests in ${wall.toFixed(1)} s (${(requests / wall).toFixed(0)} a second), answered:`);
    for (const [what, n] of [...floodAnswers].sort((a, b) => b[1] - a[1])) {
      console.log(`${String(n).padStart(7)} x ${what.slice(0, 140)}`);
    }
    console.log(
      `service calls meanwhile (flood and honest buyers): ${calls.total} (${calls.text}), ${(calls.total / Math.max(1, requests)).toFixed(3)} per flood request; ` +
        `peak ${peak} in one second (the partner's limit 20)`,
    );
    console.log(`honest buyers: ${paid.map((p, i) => `#${i + 1} ${p.what === 'landing' ? 'paid' : p.what} in ${(p.ms / 1000).toFixed(1)} s`).join('; ')}`);
    goals.add(G, `429s from the sandbox, ${addresses}-address flood`, String(limited), '0', limited === 0);
    goals.add(G, `honest buyers reaching the landing page, ${addresses}-address flood`, `${reached}/${buyers}`, `${buyers}/${buyers}`, reached === buyers);
    // The partner's window clears before the next round.
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}
