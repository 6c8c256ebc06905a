/**
 * Supported crypto assets. `symbol` is exactly the code the service uses in
 * `to_currency` (identifier-style symbols are kept exactly as the spec prints
 * them, including case and the 7-hex-digit first group of the first one).
 * `decimals` is the asset's real-world precision on its chain; the spec does not
 * give it, so it is the project's choice (decisions.md: "Crypto decimals and names").
 */
export type CryptoChain = 'Bitcoin' | 'Binance Smart Chain' | 'Everscale' | 'Near' | 'Polygon' | 'TON' | 'TRON' | 'Ethereum';

export interface CryptoAsset {
  /** Service code used in to_currency. */
  readonly symbol: string;
  /** Market ticker shown to people (equals symbol for plain symbols). */
  readonly ticker: string;
  /** Display name. */
  readonly name: string;
  readonly chain: CryptoChain;
  /** Decimal places of the smallest unit on its chain. */
  readonly decimals: number;
}

type Row = [symbol: string, ticker: string, name: string, chain: CryptoChain, decimals: number];

// Order as in the service table.
const ROWS: readonly Row[] = [
  ['BTC', 'BTC', 'Bitcoin', 'Bitcoin', 8],
  ['BNB', 'BNB', 'BNB', 'Binance Smart Chain', 18],
  ['BEP20USDT', 'USDT', 'Tether USD (BEP20)', 'Binance Smart Chain', 18],
  ['BEP20GMT', 'GMT', 'STEPN GMT (BEP20)', 'Binance Smart Chain', 8],
  ['EVERTIP3USDT', 'USDT', 'Tether USD (Everscale TIP-3)', 'Everscale', 6],
  ['TON', 'EVER', 'Everscale (formerly TON Crystal)', 'Everscale', 9],
  ['NEAR', 'NEAR', 'NEAR Protocol', 'Near', 24],
  ['PERC20BOB', 'BOB', 'BOB stablecoin (Polygon)', 'Polygon', 18],
  ['MATIC', 'MATIC', 'Polygon', 'Polygon', 18],
  ['TONCOIN', 'TON', 'Toncoin', 'TON', 9],
  ['TRC20USDC', 'USDC', 'USD Coin (TRC20)', 'TRON', 6],
  ['TRC20USDT', 'USDT', 'Tether USD (TRC20)', 'TRON', 6],
  ['TRX', 'TRX', 'TRON', 'TRON', 6],
  ['ETH', 'ETH', 'Ethereum', 'Ethereum', 18],
  ['USDT', 'USDT', 'Tether USD (ERC20)', 'Ethereum', 6],
  ['ERC20GMT2', 'GMT', 'STEPN GMT (ERC20)', 'Ethereum', 8],
  ['1E37B77-E0F5-4023-A98E-03156595A80B', 'XCAD', 'XCAD Network', 'Ethereum', 18],
  ['437102F1-80DA-475E-A033-E79A40E3E8A5', 'DAI', 'Dai Stablecoin', 'Ethereum', 18],
  ['F64F07D7-638C-497D-939C-833CF9024732', 'EURT', 'Euro Tether', 'Ethereum', 6],
  ['890BBA7A-0690-4A58-B831-CC55BF2CB90F', 'BNT', 'Bancor', 'Ethereum', 18],
  ['6FA79730-4DBB-4EE6-BC88-C8E5123CECAA', 'CRV', 'Curve DAO Token', 'Ethereum', 18],
  ['FC1D920C-4C0F-49C6-89A9-D8F78CD48991', 'MC', 'Merit Circle', 'Ethereum', 18],
  ['056075bf-715f-4174-b841-e9a77c18328e', 'YGG', 'Yield Guild Games', 'Ethereum', 18],
  ['74a1df38-605d-46bc-9d4f-6af2e692add4', 'INJ', 'Injective', 'Ethereum', 18],
  ['29391308-09b9-466e-a368-cac98942b3f2', 'RNDR', 'Render', 'Ethereum', 18],
  ['edea2b7a-0032-4730-90b4-04b6c6ec5a3c', 'PHA', 'Phala Network', 'Ethereum', 18],
  ['9ab09e1b-71e9-4fdc-8f98-a294733c0f44', 'BLUR', 'blur', 'Ethereum', 18],
];

export const CRYPTO_ASSETS: readonly CryptoAsset[] = Object.freeze(
  ROWS.map(([symbol, ticker, name, chain, decimals]) => Object.freeze({ symbol, ticker, name, chain, decimals })),
);

const BY_SYMBOL = new Map(CRYPTO_ASSETS.map((a) => [a.symbol, a]));

/** The asset with exactly this service symbol (case as printed in the spec), or undefined. */
export function findCryptoAsset(symbol: string): CryptoAsset | undefined {
  return BY_SYMBOL.get(symbol);
}

export function isCryptoSymbol(symbol: string): boolean {
  return BY_SYMBOL.has(symbol);
}

/** The canonical symbol that differs from `symbol` only in letter case, if any (for helpful messages). */
export function cryptoSymbolCaseInsensitive(symbol: string): string | undefined {
  const upper = symbol.toUpperCase();
  return CRYPTO_ASSETS.find((a) => a.symbol.toUpperCase() === upper)?.symbol;
}

/** A label such as "Dai Stablecoin (DAI, Ethereum)" for select boxes. */
export function cryptoAssetLabel(asset: CryptoAsset): string {
  return asset.name === asset.ticker ? `${asset.name} (${asset.chain})` : `${asset.name} (${asset.ticker}, ${asset.chain})`;
}
