/**
 * Simulated blockchain artefacts: transaction ids, explorer links and the
 * partner's fee wallet, all derived deterministically from ids so the same
 * operation always shows the same values (decisions.md, "Sandbox: simulated
 * blockchain data").
 */
import { createHash } from 'node:crypto';
import { findCryptoAsset, validateBtcAddress, type CryptoChain } from '@card2crypto/core';

function hashHex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58Like(seed: string, length: number): string {
  const bytes = createHash('sha512').update(seed).digest();
  let out = '';
  for (let i = 0; i < length; i++) {
    out += BASE58[bytes[i % bytes.length]! % 58];
  }
  return out;
}

function chainOf(symbol: string): CryptoChain {
  const asset = findCryptoAsset(symbol);
  if (!asset) {
    throw new RangeError(`unknown crypto asset ${symbol}`);
  }
  return asset.chain;
}

const EVM: readonly CryptoChain[] = ['Ethereum', 'Binance Smart Chain', 'Polygon'];

/** A transaction id in the chain's usual notation. */
export function transactionId(symbol: string, seed: string): string {
  const hex = hashHex(`tx:${seed}`);
  return EVM.includes(chainOf(symbol)) ? `0x${hex}` : hex;
}

/** Explorer page of a transaction; `address` picks Bitcoin's test network explorer for test addresses. */
export function explorerUrl(symbol: string, txId: string, address: string): string {
  switch (chainOf(symbol)) {
    case 'Bitcoin': {
      const check = validateBtcAddress(address);
      return check.valid && check.network !== 'mainnet' ? `https://mempool.space/testnet/tx/${txId}` : `https://mempool.space/tx/${txId}`;
    }
    case 'Ethereum':
      return `https://etherscan.io/tx/${txId}`;
    case 'Binance Smart Chain':
      return `https://bscscan.com/tx/${txId}`;
    case 'Polygon':
      return `https://polygonscan.com/tx/${txId}`;
    case 'TRON':
      return `https://tronscan.org/#/transaction/${txId}`;
    case 'TON':
      return `https://tonviewer.com/transaction/${txId}`;
    case 'Everscale':
      return `https://everscan.io/transactions/${txId}`;
    case 'Near':
      return `https://nearblocks.io/txns/${txId}`;
  }
}

/**
 * The partner's payout wallet on the asset's chain. Bitcoin uses the BIP173
 * example address (a valid mainnet P2WPKH address nobody controls); other
 * chains get an address of the right shape derived from the partner token.
 */
const wallets = new Map<string, string>();

export function partnerWallet(symbol: string, partnerToken: string): string {
  const key = `${symbol}\u0000${partnerToken}`;
  let wallet = wallets.get(key);
  if (wallet === undefined) {
    wallet = deriveWallet(symbol, partnerToken);
    if (wallets.size < 10_000) {
      wallets.set(key, wallet);
    }
  }
  return wallet;
}

function deriveWallet(symbol: string, partnerToken: string): string {
  const chain = chainOf(symbol);
  const hex = hashHex(`wallet:${chain}:${partnerToken}`);
  if (chain === 'Bitcoin') {
    return 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
  }
  if (EVM.includes(chain)) {
    return `0x${hex.slice(0, 40)}`;
  }
  if (chain === 'TRON') {
    return `T${base58Like(hex, 33)}`;
  }
  if (chain === 'Near') {
    return `${hex.slice(0, 16)}.near`;
  }
  return `0:${hex}`;
}
