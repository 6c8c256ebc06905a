/**
 * Durable state of the sandbox: one SQLite file (Node's own node:sqlite, WAL mode) under
 * the data directory. Every change that matters (an operation step, a callback
 * and its schedule, a partner's block flag) is committed before the sandbox acts
 * on it, so a stop and restart (or a crash) loses no operation and no pending
 * callback.
 *
 * Amounts are integers in minimum units stored as decimal text (18-decimal
 * tokens exceed 2^53); times are real milliseconds since the epoch.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';

export interface PartnerRecord {
  token: string;
  secret: string;
  callbackUrl: string | null;
  blocked: boolean;
}

export interface OperationRecord {
  id: string;
  partnerToken: string;
  partnerOperationId: string | null;
  status: string;
  statusCode: number;
  fromCurrency: string;
  fromAmount: string;
  toCurrency: string;
  toAmount: string;
  feeAmount: string;
  currencyRate: string;
  toAccount: string;
  email: string;
  customerId: number;
  customerCountry: string;
  /** Masked card data, set when the buyer pays. */
  card: MaskedCard | null;
  /** Test scenario chosen by the card (see scenarios.ts), set when the buyer pays. */
  scenario: string | null;
  /** Status codes still to walk automatically, in order. */
  plan: number[];
  /** When the next planned step is due (real ms), or null. */
  nextStepAt: number | null;
  calculationId: string | null;
  sessionId: string | null;
  createdAt: number;
  paidAt: number | null;
  updatedAt: number;
  /** Blockchain transaction ids, set when the withdrawal transaction exists (code 6). */
  txId: string | null;
  feeTxId: string | null;
}

export interface MaskedCard {
  number: string;
  type: string;
  card_holder: string;
  expiry_month: string;
  expiry_year: string;
  /** Issuing country, ISO 3166-1 alpha-2. */
  country: string;
}

export interface HistoryEntry {
  id: number;
  operationId: string;
  status: string;
  statusCode: number;
  at: number;
  source: string;
  note: string;
}

export type CallbackState = 'pending' | 'delivered' | 'exhausted' | 'no_url';

export interface CallbackRecord {
  id: number;
  operationId: string;
  partnerToken: string;
  status: string;
  statusCode: number;
  body: string;
  state: CallbackState;
  attempts: number;
  firstAttemptAt: number | null;
  /**
   * When attempt 1 is (or was) due, shifted by any downtime: attempt n is due at
   * anchorAt + sinceFirst(n) / clock speed (retry-schedule.ts in core).
   */
  anchorAt: number | null;
  nextAttemptAt: number | null;
  createdAt: number;
  finishedAt: number | null;
  lastHttpStatus: number | null;
}

export type AttemptUpdate = Pick<CallbackRecord, 'state' | 'attempts' | 'firstAttemptAt' | 'anchorAt' | 'nextAttemptAt' | 'finishedAt' | 'lastHttpStatus'>;

export interface AttemptRecord {
  id: number;
  callbackId: number;
  /** Schedule attempt number (1 = first delivery); 0 for a manual resend. */
  attempt: number;
  at: number;
  url: string;
  httpStatus: number | null;
  excerpt: string;
  error: string | null;
  durationMs: number;
}

export interface CalculationRecord {
  id: string;
  partnerToken: string;
  fromCurrency: string;
  toCurrency: string;
  fromAmount: string;
  toAmount: string;
  feeAmount: string;
  rate: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionRecord {
  id: string;
  partnerToken: string;
  settings: Record<string, unknown>;
  parentOrigin: string;
  instance: string;
  createdAt: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS partners (
  token TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  callback_url TEXT,
  blocked INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS customers (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  partner_token TEXT NOT NULL,
  settings TEXT NOT NULL,
  parent_origin TEXT NOT NULL,
  instance TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS calculations (
  id TEXT PRIMARY KEY,
  partner_token TEXT NOT NULL,
  from_currency TEXT NOT NULL,
  to_currency TEXT NOT NULL,
  from_amount TEXT NOT NULL,
  to_amount TEXT NOT NULL,
  fee_amount TEXT NOT NULL,
  rate TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS operations (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  partner_token TEXT NOT NULL,
  partner_operation_id TEXT,
  status TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  from_currency TEXT NOT NULL,
  from_amount TEXT NOT NULL,
  to_currency TEXT NOT NULL,
  to_amount TEXT NOT NULL,
  fee_amount TEXT NOT NULL,
  currency_rate TEXT NOT NULL,
  to_account TEXT NOT NULL,
  email TEXT NOT NULL,
  customer_id INTEGER NOT NULL,
  customer_country TEXT NOT NULL,
  card TEXT,
  scenario TEXT,
  plan TEXT NOT NULL DEFAULT '[]',
  next_step_at INTEGER,
  calculation_id TEXT,
  session_id TEXT,
  created_at INTEGER NOT NULL,
  paid_at INTEGER,
  updated_at INTEGER NOT NULL,
  tx_id TEXT,
  fee_tx_id TEXT
);
CREATE INDEX IF NOT EXISTS operations_partner_op ON operations (partner_token, partner_operation_id, seq);
CREATE INDEX IF NOT EXISTS operations_next_step ON operations (next_step_at) WHERE next_step_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS operations_seq ON operations (seq);
CREATE TABLE IF NOT EXISTS operation_history (
  id INTEGER PRIMARY KEY,
  operation_id TEXT NOT NULL,
  status TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  at INTEGER NOT NULL,
  source TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS operation_history_op ON operation_history (operation_id, id);
CREATE TABLE IF NOT EXISTS callbacks (
  id INTEGER PRIMARY KEY,
  operation_id TEXT NOT NULL,
  partner_token TEXT NOT NULL,
  status TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  first_attempt_at INTEGER,
  anchor_at INTEGER,
  next_attempt_at INTEGER,
  in_flight INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  finished_at INTEGER,
  last_http_status INTEGER
);
CREATE INDEX IF NOT EXISTS callbacks_due ON callbacks (partner_token, next_attempt_at) WHERE state = 'pending' AND in_flight = 0;
CREATE INDEX IF NOT EXISTS callbacks_op ON callbacks (operation_id, id);
CREATE TABLE IF NOT EXISTS callback_attempts (
  id INTEGER PRIMARY KEY,
  callback_id INTEGER NOT NULL,
  attempt INTEGER NOT NULL,
  at INTEGER NOT NULL,
  url TEXT NOT NULL,
  http_status INTEGER,
  excerpt TEXT NOT NULL DEFAULT '',
  error TEXT,
  duration_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS callback_attempts_cb ON callback_attempts (callback_id, id);
`;

type Row = Record<string, unknown>;

function str(row: Row, key: string): string {
  return row[key] as string;
}
function num(row: Row, key: string): number {
  return row[key] as number;
}
function numOrNull(row: Row, key: string): number | null {
  const v = row[key];
  return v === null || v === undefined ? null : (v as number);
}
function strOrNull(row: Row, key: string): string | null {
  const v = row[key];
  return v === null || v === undefined ? null : (v as string);
}

function toPartner(row: Row): PartnerRecord {
  return { token: str(row, 'token'), secret: str(row, 'secret'), callbackUrl: strOrNull(row, 'callback_url'), blocked: num(row, 'blocked') === 1 };
}

function toOperation(row: Row): OperationRecord {
  const card = strOrNull(row, 'card');
  return {
    id: str(row, 'id'),
    partnerToken: str(row, 'partner_token'),
    partnerOperationId: strOrNull(row, 'partner_operation_id'),
    status: str(row, 'status'),
    statusCode: num(row, 'status_code'),
    fromCurrency: str(row, 'from_currency'),
    fromAmount: str(row, 'from_amount'),
    toCurrency: str(row, 'to_currency'),
    toAmount: str(row, 'to_amount'),
    feeAmount: str(row, 'fee_amount'),
    currencyRate: str(row, 'currency_rate'),
    toAccount: str(row, 'to_account'),
    email: str(row, 'email'),
    customerId: num(row, 'customer_id'),
    customerCountry: str(row, 'customer_country'),
    card: card === null ? null : (JSON.parse(card) as MaskedCard),
    scenario: strOrNull(row, 'scenario'),
    plan: JSON.parse(str(row, 'plan')) as number[],
    nextStepAt: numOrNull(row, 'next_step_at'),
    calculationId: strOrNull(row, 'calculation_id'),
    sessionId: strOrNull(row, 'session_id'),
    createdAt: num(row, 'created_at'),
    paidAt: numOrNull(row, 'paid_at'),
    updatedAt: num(row, 'updated_at'),
    txId: strOrNull(row, 'tx_id'),
    feeTxId: strOrNull(row, 'fee_tx_id'),
  };
}

function toCallback(row: Row): CallbackRecord {
  return {
    id: num(row, 'id'),
    operationId: str(row, 'operation_id'),
    partnerToken: str(row, 'partner_token'),
    status: str(row, 'status'),
    statusCode: num(row, 'status_code'),
    body: str(row, 'body'),
    state: str(row, 'state') as CallbackState,
    attempts: num(row, 'attempts'),
    firstAttemptAt: numOrNull(row, 'first_attempt_at'),
    anchorAt: numOrNull(row, 'anchor_at'),
    nextAttemptAt: numOrNull(row, 'next_attempt_at'),
    createdAt: num(row, 'created_at'),
    finishedAt: numOrNull(row, 'finished_at'),
    lastHttpStatus: numOrNull(row, 'last_http_status'),
  };
}

function toAttempt(row: Row): AttemptRecord {
  return {
    id: num(row, 'id'),
    callbackId: num(row, 'callback_id'),
    attempt: num(row, 'attempt'),
    at: num(row, 'at'),
    url: str(row, 'url'),
    httpStatus: numOrNull(row, 'http_status'),
    excerpt: str(row, 'excerpt'),
    error: strOrNull(row, 'error'),
    durationMs: num(row, 'duration_ms'),
  };
}

function toCalculation(row: Row): CalculationRecord {
  return {
    id: str(row, 'id'),
    partnerToken: str(row, 'partner_token'),
    fromCurrency: str(row, 'from_currency'),
    toCurrency: str(row, 'to_currency'),
    fromAmount: str(row, 'from_amount'),
    toAmount: str(row, 'to_amount'),
    feeAmount: str(row, 'fee_amount'),
    rate: str(row, 'rate'),
    createdAt: num(row, 'created_at'),
    expiresAt: num(row, 'expires_at'),
  };
}

/** The operations table's columns, each written from the record member of the same name in camelCase (seq is assigned). */
const OPERATION_COLUMNS = [
  'id',
  'seq',
  'partner_token',
  'partner_operation_id',
  'status',
  'status_code',
  'from_currency',
  'from_amount',
  'to_currency',
  'to_amount',
  'fee_amount',
  'currency_rate',
  'to_account',
  'email',
  'customer_id',
  'customer_country',
  'card',
  'scenario',
  'plan',
  'next_step_at',
  'calculation_id',
  'session_id',
  'created_at',
  'paid_at',
  'updated_at',
  'tx_id',
  'fee_tx_id',
] as const;
/** A new row's seq is one more than the last. */
const OPERATION_VALUES = OPERATION_COLUMNS.map((c) => (c === 'seq' ? '(SELECT COALESCE(MAX(seq), 0) + 1 FROM operations)' : `@${c}`)).join(', ');

/** An operation as the parameters of OPERATION_COLUMNS (card and plan as JSON text). */
function operationRow(o: OperationRecord): Record<string, string | number | null> {
  return {
    id: o.id,
    partner_token: o.partnerToken,
    partner_operation_id: o.partnerOperationId,
    status: o.status,
    status_code: o.statusCode,
    from_currency: o.fromCurrency,
    from_amount: o.fromAmount,
    to_currency: o.toCurrency,
    to_amount: o.toAmount,
    fee_amount: o.feeAmount,
    currency_rate: o.currencyRate,
    to_account: o.toAccount,
    email: o.email,
    customer_id: o.customerId,
    customer_country: o.customerCountry,
    card: o.card === null ? null : JSON.stringify(o.card),
    scenario: o.scenario,
    plan: JSON.stringify(o.plan),
    next_step_at: o.nextStepAt,
    calculation_id: o.calculationId,
    session_id: o.sessionId,
    created_at: o.createdAt,
    paid_at: o.paidAt,
    updated_at: o.updatedAt,
    tx_id: o.txId,
    fee_tx_id: o.feeTxId,
  };
}

/** What creating an operation stores; everything else starts empty (no card, no plan, not paid). */
export type NewOperation = Omit<OperationRecord, 'customerId' | 'card' | 'scenario' | 'plan' | 'nextStepAt' | 'paidAt' | 'updatedAt' | 'txId' | 'feeTxId'>;

export interface NewCallback {
  operationId: string;
  partnerToken: string;
  status: string;
  statusCode: number;
  body: string;
  state: CallbackState;
  nextAttemptAt: number | null;
  createdAt: number;
}

export class Store {
  readonly db: DatabaseSync;
  readonly path: string;
  private readonly stmts: ReturnType<typeof prepare>;
  /** How deep the running transaction() calls are (nested calls become savepoints). */
  private depth = 0;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.path = join(dataDir, 'sandbox.sqlite');
    this.db = new DatabaseSync(this.path);
    this.db.exec('PRAGMA journal_mode = WAL');
    // NORMAL in WAL mode survives a crash of the process (not of the machine), which is what a restart needs.
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec('PRAGMA busy_timeout = 5000');
    this.db.exec(SCHEMA);
    this.stmts = prepare(this.db);
  }

  close(): void {
    if (this.db.isOpen) {
      this.db.close();
    }
  }

  /** Runs `fn` in one transaction (all or nothing); a call inside another is a savepoint of it. */
  transaction<T>(fn: () => T): T {
    const savepoint = `sp${this.depth}`;
    this.db.exec(this.depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
    this.depth++;
    try {
      const result = fn();
      this.depth--;
      this.db.exec(this.depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
      return result;
    } catch (error) {
      this.depth--;
      this.db.exec(this.depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
      throw error;
    }
  }

  // ---------------------------------------------------------------- partners

  upsertPartner(p: { token: string; secret: string; callbackUrl: string | null }, now: number): void {
    this.stmts.upsertPartner.run({ token: p.token, secret: p.secret, callback_url: p.callbackUrl, created_at: now });
  }

  listPartners(): PartnerRecord[] {
    return (this.stmts.listPartners.all() as Row[]).map(toPartner);
  }

  setPartnerBlocked(token: string, blocked: boolean): boolean {
    return this.stmts.setBlocked.run({ token, blocked: blocked ? 1 : 0 }).changes === 1;
  }

  // ---------------------------------------------------------------- customers

  customerId(email: string): number {
    const key = email.toLowerCase();
    this.stmts.insertCustomer.run({ email: key });
    return num(this.stmts.getCustomer.get({ email: key }) as Row, 'id');
  }

  // ---------------------------------------------------------------- sessions

  insertSession(s: SessionRecord): void {
    this.stmts.insertSession.run({
      id: s.id,
      partner_token: s.partnerToken,
      settings: JSON.stringify(s.settings),
      parent_origin: s.parentOrigin,
      instance: s.instance,
      created_at: s.createdAt,
    });
  }

  getSession(id: string): SessionRecord | undefined {
    const row = this.stmts.getSession.get({ id }) as Row | undefined;
    if (!row) {
      return undefined;
    }
    return {
      id: str(row, 'id'),
      partnerToken: str(row, 'partner_token'),
      settings: JSON.parse(str(row, 'settings')) as Record<string, unknown>,
      parentOrigin: str(row, 'parent_origin'),
      instance: str(row, 'instance'),
      createdAt: num(row, 'created_at'),
    };
  }

  // ---------------------------------------------------------------- calculations

  insertCalculation(c: CalculationRecord): void {
    this.stmts.insertCalculation.run({
      id: c.id,
      partner_token: c.partnerToken,
      from_currency: c.fromCurrency,
      to_currency: c.toCurrency,
      from_amount: c.fromAmount,
      to_amount: c.toAmount,
      fee_amount: c.feeAmount,
      rate: c.rate,
      created_at: c.createdAt,
      expires_at: c.expiresAt,
    });
  }

  getCalculation(id: string): CalculationRecord | undefined {
    const row = this.stmts.getCalculation.get({ id }) as Row | undefined;
    return row ? toCalculation(row) : undefined;
  }

  // ---------------------------------------------------------------- operations

  insertOperation(o: NewOperation): OperationRecord {
    const record: OperationRecord = {
      ...o,
      customerId: this.customerId(o.email),
      card: null,
      scenario: null,
      plan: [],
      nextStepAt: null,
      paidAt: null,
      updatedAt: o.createdAt,
      txId: null,
      feeTxId: null,
    };
    this.stmts.insertOperation.run(operationRow(record));
    return record;
  }

  getOperation(id: string): OperationRecord | undefined {
    const row = this.stmts.getOperation.get({ id }) as Row | undefined;
    return row ? toOperation(row) : undefined;
  }

  /** The latest operation of a partner carrying this partner_operation_id. */
  findByPartnerOperationId(partnerToken: string, partnerOperationId: string): OperationRecord | undefined {
    const row = this.stmts.findByPartnerOp.get({ partner_token: partnerToken, partner_operation_id: partnerOperationId }) as Row | undefined;
    return row ? toOperation(row) : undefined;
  }

  listOperations(limit: number, offset = 0): OperationRecord[] {
    return (this.stmts.listOperations.all({ limit, offset }) as Row[]).map(toOperation);
  }

  countOperations(): number {
    return num(this.stmts.countOperations.get() as Row, 'n');
  }

  updateOperation(o: OperationRecord): void {
    this.stmts.updateOperation.run({
      id: o.id,
      status: o.status,
      status_code: o.statusCode,
      card: o.card === null ? null : JSON.stringify(o.card),
      scenario: o.scenario,
      plan: JSON.stringify(o.plan),
      next_step_at: o.nextStepAt,
      paid_at: o.paidAt,
      updated_at: o.updatedAt,
      tx_id: o.txId,
      fee_tx_id: o.feeTxId,
    });
  }

  /**
   * Writes a whole operation as given, inserting it or replacing every member
   * but its partner, sequence and creation time (the test helper of
   * api/sandbox-operations.ts). Returns it as stored.
   */
  putOperation(o: Omit<OperationRecord, 'customerId'>): OperationRecord {
    this.stmts.putOperation.run(operationRow({ ...o, customerId: this.customerId(o.email) }));
    return this.getOperation(o.id)!;
  }

  /** Operations whose next automatic step is due at or before `now`. */
  dueOperations(now: number, limit: number): OperationRecord[] {
    return (this.stmts.dueOperations.all({ now, limit }) as Row[]).map(toOperation);
  }

  nextStepAt(): number | null {
    const row = this.stmts.nextStepAt.get() as Row;
    return numOrNull(row, 't');
  }

  addHistory(e: Omit<HistoryEntry, 'id'>): void {
    this.stmts.addHistory.run({ operation_id: e.operationId, status: e.status, status_code: e.statusCode, at: e.at, source: e.source, note: e.note });
  }

  history(operationId: string): HistoryEntry[] {
    return (this.stmts.history.all({ operation_id: operationId }) as Row[]).map((row) => ({
      id: num(row, 'id'),
      operationId: str(row, 'operation_id'),
      status: str(row, 'status'),
      statusCode: num(row, 'status_code'),
      at: num(row, 'at'),
      source: str(row, 'source'),
      note: str(row, 'note'),
    }));
  }

  // ---------------------------------------------------------------- callbacks

  insertCallback(c: NewCallback): number {
    const info = this.stmts.insertCallback.run({
      operation_id: c.operationId,
      partner_token: c.partnerToken,
      status: c.status,
      status_code: c.statusCode,
      body: c.body,
      state: c.state,
      next_attempt_at: c.nextAttemptAt,
      created_at: c.createdAt,
    });
    return Number(info.lastInsertRowid);
  }

  getCallback(id: number): CallbackRecord | undefined {
    const row = this.stmts.getCallback.get({ id }) as Row | undefined;
    return row ? toCallback(row) : undefined;
  }

  callbacksOf(operationId: string): CallbackRecord[] {
    return (this.stmts.callbacksOf.all({ operation_id: operationId }) as Row[]).map(toCallback);
  }

  /**
   * Takes up to `limit` pending callbacks of one partner that are due at or
   * before `now` and not already being delivered, marking them in flight.
   * Call it inside a transaction.
   */
  claimDue(partnerToken: string, now: number, limit: number): CallbackRecord[] {
    const rows = (this.stmts.dueCallbacks.all({ partner_token: partnerToken, now, limit }) as Row[]).map(toCallback);
    for (const row of rows) {
      this.stmts.claimCallback.run({ id: row.id });
    }
    return rows;
  }

  /** Earliest due time of a partner's pending callbacks that are not in flight, or null. */
  nextDueFor(partnerToken: string): number | null {
    return numOrNull(this.stmts.nextDueFor.get({ partner_token: partnerToken }) as Row, 't');
  }

  /** At start-up: nothing is in flight any more (deliveries cut short by a stop are made again). */
  releaseInFlight(): void {
    this.stmts.releaseInFlight.run();
  }

  countCallbacks(state: CallbackState): number {
    return num(this.stmts.countCallbacks.get({ state }) as Row, 'n');
  }

  /** Records one attempt and the callback's new schedule state (no longer in flight), atomically. */
  recordAttempt(a: Omit<AttemptRecord, 'id'>, update: AttemptUpdate): void {
    this.transaction(() => this.writeAttempt(a, update));
  }

  /** recordAttempt without its own transaction, for callers that group several in one. */
  writeAttempt(a: Omit<AttemptRecord, 'id'>, update: AttemptUpdate): void {
    this.stmts.insertAttempt.run({
      callback_id: a.callbackId,
      attempt: a.attempt,
      at: a.at,
      url: a.url,
      http_status: a.httpStatus,
      excerpt: a.excerpt,
      error: a.error,
      duration_ms: a.durationMs,
    });
    this.stmts.updateCallback.run({
      id: a.callbackId,
      state: update.state,
      attempts: update.attempts,
      first_attempt_at: update.firstAttemptAt,
      anchor_at: update.anchorAt,
      next_attempt_at: update.nextAttemptAt,
      finished_at: update.finishedAt,
      last_http_status: update.lastHttpStatus,
    });
  }

  attemptsOf(callbackId: number): AttemptRecord[] {
    return (this.stmts.attemptsOf.all({ callback_id: callbackId }) as Row[]).map(toAttempt);
  }
}

/** Named parameter values, by name without the "@". */
type Params = Record<string, SQLInputValue>;

/**
 * A prepared statement that takes its named parameters from an object holding
 * them and maybe more (node:sqlite refuses a member the statement does not name).
 */
function statement(db: DatabaseSync, sql: string) {
  const compiled = db.prepare(sql);
  const names = [...new Set([...sql.matchAll(/@([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!))];
  const only = (params: Params = {}): Params =>
    Object.fromEntries(
      names.map((name) => {
        if (!(name in params)) {
          throw new TypeError(`Missing named parameter "${name}"`);
        }
        return [name, params[name]!];
      }),
    );
  return {
    run: (params?: Params) => (names.length > 0 ? compiled.run(only(params)) : compiled.run()),
    get: (params?: Params) => (names.length > 0 ? compiled.get(only(params)) : compiled.get()),
    all: (params?: Params) => (names.length > 0 ? compiled.all(only(params)) : compiled.all()),
  };
}

function prepare(database: DatabaseSync) {
  const db = { prepare: (sql: string) => statement(database, sql) };
  return {
    upsertPartner: db.prepare(
      `INSERT INTO partners (token, secret, callback_url, blocked, created_at) VALUES (@token, @secret, @callback_url, 0, @created_at)
       ON CONFLICT (token) DO UPDATE SET secret = excluded.secret, callback_url = excluded.callback_url`,
    ),
    listPartners: db.prepare('SELECT * FROM partners ORDER BY created_at, token'),
    setBlocked: db.prepare('UPDATE partners SET blocked = @blocked WHERE token = @token'),
    insertCustomer: db.prepare('INSERT OR IGNORE INTO customers (email) VALUES (@email)'),
    getCustomer: db.prepare('SELECT id FROM customers WHERE email = @email'),
    insertSession: db.prepare(
      'INSERT INTO sessions (id, partner_token, settings, parent_origin, instance, created_at) VALUES (@id, @partner_token, @settings, @parent_origin, @instance, @created_at)',
    ),
    getSession: db.prepare('SELECT * FROM sessions WHERE id = @id'),
    insertCalculation: db.prepare(
      `INSERT INTO calculations (id, partner_token, from_currency, to_currency, from_amount, to_amount, fee_amount, rate, created_at, expires_at)
       VALUES (@id, @partner_token, @from_currency, @to_currency, @from_amount, @to_amount, @fee_amount, @rate, @created_at, @expires_at)`,
    ),
    getCalculation: db.prepare('SELECT * FROM calculations WHERE id = @id'),
    insertOperation: db.prepare(`INSERT INTO operations (${OPERATION_COLUMNS.join(', ')}) VALUES (${OPERATION_VALUES})`),
    getOperation: db.prepare('SELECT * FROM operations WHERE id = @id'),
    findByPartnerOp: db.prepare(
      'SELECT * FROM operations WHERE partner_token = @partner_token AND partner_operation_id = @partner_operation_id ORDER BY seq DESC LIMIT 1',
    ),
    listOperations: db.prepare('SELECT * FROM operations ORDER BY seq DESC LIMIT @limit OFFSET @offset'),
    countOperations: db.prepare('SELECT COUNT(*) AS n FROM operations'),
    updateOperation: db.prepare(
      `UPDATE operations SET status = @status, status_code = @status_code, card = @card, scenario = @scenario, plan = @plan,
         next_step_at = @next_step_at, paid_at = @paid_at, updated_at = @updated_at, tx_id = @tx_id, fee_tx_id = @fee_tx_id WHERE id = @id`,
    ),
    putOperation: db.prepare(
      `INSERT INTO operations (${OPERATION_COLUMNS.join(', ')}) VALUES (${OPERATION_VALUES})
       ON CONFLICT (id) DO UPDATE SET partner_operation_id = excluded.partner_operation_id, status = excluded.status,
         status_code = excluded.status_code, from_currency = excluded.from_currency, from_amount = excluded.from_amount,
         to_currency = excluded.to_currency, to_amount = excluded.to_amount, fee_amount = excluded.fee_amount, currency_rate = excluded.currency_rate,
         to_account = excluded.to_account, email = excluded.email, customer_id = excluded.customer_id, customer_country = excluded.customer_country,
         card = excluded.card, scenario = excluded.scenario, plan = excluded.plan, next_step_at = excluded.next_step_at,
         calculation_id = excluded.calculation_id, session_id = excluded.session_id, paid_at = excluded.paid_at, updated_at = excluded.updated_at,
         tx_id = excluded.tx_id, fee_tx_id = excluded.fee_tx_id`,
    ),
    dueOperations: db.prepare('SELECT * FROM operations WHERE next_step_at IS NOT NULL AND next_step_at <= @now ORDER BY next_step_at LIMIT @limit'),
    nextStepAt: db.prepare('SELECT MIN(next_step_at) AS t FROM operations WHERE next_step_at IS NOT NULL'),
    addHistory: db.prepare(
      'INSERT INTO operation_history (operation_id, status, status_code, at, source, note) VALUES (@operation_id, @status, @status_code, @at, @source, @note)',
    ),
    history: db.prepare('SELECT * FROM operation_history WHERE operation_id = @operation_id ORDER BY id'),
    insertCallback: db.prepare(
      `INSERT INTO callbacks (operation_id, partner_token, status, status_code, body, state, anchor_at, next_attempt_at, created_at)
       VALUES (@operation_id, @partner_token, @status, @status_code, @body, @state, @next_attempt_at, @next_attempt_at, @created_at)`,
    ),
    getCallback: db.prepare('SELECT * FROM callbacks WHERE id = @id'),
    callbacksOf: db.prepare('SELECT * FROM callbacks WHERE operation_id = @operation_id ORDER BY id'),
    dueCallbacks: db.prepare(
      `SELECT * FROM callbacks WHERE partner_token = @partner_token AND state = 'pending' AND in_flight = 0 AND next_attempt_at <= @now
       ORDER BY next_attempt_at LIMIT @limit`,
    ),
    claimCallback: db.prepare('UPDATE callbacks SET in_flight = 1 WHERE id = @id'),
    nextDueFor: db.prepare("SELECT MIN(next_attempt_at) AS t FROM callbacks WHERE partner_token = @partner_token AND state = 'pending' AND in_flight = 0"),
    releaseInFlight: db.prepare('UPDATE callbacks SET in_flight = 0 WHERE in_flight = 1'),
    countCallbacks: db.prepare('SELECT COUNT(*) AS n FROM callbacks WHERE state = @state'),
    insertAttempt: db.prepare(
      `INSERT INTO callback_attempts (callback_id, attempt, at, url, http_status, excerpt, error, duration_ms)
       VALUES (@callback_id, @attempt, @at, @url, @http_status, @excerpt, @error, @duration_ms)`,
    ),
    updateCallback: db.prepare(
      `UPDATE callbacks SET state = @state, attempts = @attempts, first_attempt_at = @first_attempt_at, anchor_at = @anchor_at,
         next_attempt_at = @next_attempt_at, in_flight = 0, finished_at = @finished_at, last_http_status = @last_http_status WHERE id = @id`,
    ),
    attemptsOf: db.prepare('SELECT * FROM callback_attempts WHERE callback_id = @callback_id ORDER BY id'),
  };
}
