/**
 * Seeds a store with `count` orders of the checkout, straight into the
 * database (HPOS tables, WooCommerce's order items and notes, and the
 * plugin's own attempts, operations and events tables), cloned from one real
 * order placed through the Store API: what a store that sold for a year holds.
 * MariaDB's sequence engine (seq_1_to_N) makes it one INSERT ... SELECT per
 * table, a few seconds for 100,000 orders.
 *
 * The orders are spread over the past year, newest last. The newest
 * `pendingTail` are guest orders whose payment is under way (attempt
 * "pending" 2: the money is received, the withdrawal is not): the buyers on
 * thank-you pages. The others are completed and paid (attempt "success" 0).
 * Seeded order n (id base + n) has the order key `wc_order_s<id, 12 digits>`
 * (22 characters, the length WooCommerce keeps) and the attempt
 * `seed<base>-<n>`, so a store can be seeded twice.
 */
import type { Harness, Store } from './lib.js';

export interface Seeded {
  /** The first seeded order's id; order n (1-based) is firstId + n - 1. */
  firstId: number;
  count: number;
  /** Seconds the seeding took. */
  seconds: number;
  keyOf: (n: number) => string;
}

export async function seedOrders(lib: Harness, s: Store, template: number, count: number, pendingTail: number): Promise<Seeded> {
  const sql = (statements: string) => lib.sql(s.native!.dbSocket, `USE wordpress; ${statements}`);
  const columns = async (table: string) =>
    (await sql(`SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'wordpress' AND TABLE_NAME = '${table}' ORDER BY ORDINAL_POSITION`))
      .split('\n')
      .filter(Boolean);
  /** INSERT INTO table (cols) SELECT cols FROM table, seq WHERE ..., with some columns replaced by expressions. */
  const clone = async (table: string, where: string, replace: Record<string, string>, skip: string[] = ['id']) => {
    const cols = (await columns(table)).filter((c) => !skip.includes(c) || c in replace);
    const values = cols.map((c) => replace[c] ?? `t.${c}`);
    return `INSERT INTO ${table} (${cols.join(', ')}) SELECT ${values.join(', ')} FROM ${table} t JOIN seq_1_to_${count} q WHERE ${where};`;
  };
  const t0 = performance.now();
  const base = Number((await sql('SELECT GREATEST(MAX(ID), (SELECT COALESCE(MAX(id), 0) FROM wp_wc_orders)) FROM wp_posts')).trim()) + 1000;
  const attemptBase = Number((await sql('SELECT COALESCE(MAX(id), 0) FROM wp_card2crypto_attempts')).trim()) + 1000;
  const pendingFrom = count - pendingTail; // seq > pendingFrom: under way
  const id = `${base} + q.seq`;
  const pending = `q.seq > ${pendingFrom}`;
  // A year, oldest first: order n was created (count - n) * step seconds ago.
  const step = Math.max(1, Math.floor((365 * 86400) / count));
  const created = `DATE_SUB(UTC_TIMESTAMP(), INTERVAL (${count} - q.seq) * ${step} + 60 SECOND)`;
  const statements = [
    // HPOS reserves each order's id with a placeholder post.
    `INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, post_type) ` +
      `SELECT ${id}, 1, ${created}, ${created}, '', '', '', 'wc-pending', 'closed', 'closed', '', '', '', ${created}, ${created}, '', 0, '', 'shop_order_placehold' FROM seq_1_to_${count} q;`,
    await clone('wp_wc_orders', `t.id = ${template}`, {
      id,
      status: `IF(${pending}, 'wc-pending', 'wc-completed')`,
      date_created_gmt: created,
      date_updated_gmt: created,
      billing_email: `CONCAT('buyer', q.seq, '@example.com')`,
      transaction_id: `IF(${pending}, NULL, CONCAT('op-seed${base}-', q.seq))`,
    }),
    await clone('wp_wc_order_addresses', `t.order_id = ${template}`, {
      order_id: id,
      email: `IF(t.address_type = 'billing', CONCAT('buyer', q.seq, '@example.com'), t.email)`,
    }),
    await clone('wp_wc_order_operational_data', `t.order_id = ${template}`, {
      order_id: id,
      order_key: `CONCAT('wc_order_s', LPAD(${base} + q.seq, 12, '0'))`,
      date_paid_gmt: `IF(${pending}, NULL, ${created})`,
      date_completed_gmt: `IF(${pending}, NULL, ${created})`,
    }),
    await clone('wp_wc_orders_meta', `t.order_id = ${template} AND t.meta_key <> '_card2crypto_partner_operation_id'`, { order_id: id }),
    `INSERT INTO wp_wc_orders_meta (order_id, meta_key, meta_value) SELECT ${id}, '_card2crypto_partner_operation_id', CONCAT('seed${base}-', q.seq) FROM seq_1_to_${count} q;`,
    await clone('wp_woocommerce_order_items', `t.order_id = ${template}`, { order_id: id }, ['order_item_id']),
    `INSERT INTO wp_woocommerce_order_itemmeta (order_item_id, meta_key, meta_value) SELECT i.order_item_id, m.meta_key, m.meta_value FROM wp_woocommerce_order_items i ` +
      `JOIN wp_woocommerce_order_items ti ON ti.order_id = ${template} AND ti.order_item_type = i.order_item_type AND ti.order_item_name = i.order_item_name ` +
      `JOIN wp_woocommerce_order_itemmeta m ON m.order_item_id = ti.order_item_id WHERE i.order_id > ${base};`,
    // Two notes an order: placed, and paid (or under way).
    `INSERT INTO wp_comments (comment_post_ID, comment_author, comment_author_email, comment_author_url, comment_author_IP, comment_date, comment_date_gmt, comment_content, comment_karma, comment_approved, comment_agent, comment_type, comment_parent, user_id) ` +
      `SELECT ${id}, 'WooCommerce', 'woocommerce@example.com', '', '', ${created}, ${created}, n.text, 0, '1', 'WooCommerce', 'order_note', 0, 0 FROM seq_1_to_${count} q ` +
      `JOIN (SELECT 'Card2Crypto: payment started.' AS text UNION ALL SELECT 'Card2Crypto: the service reports the payment.') n;`,
    // The plugin's tables: one attempt, one operation and two events an order.
    `INSERT INTO wp_card2crypto_attempts (id, order_id, partner_operation_id, operation_id, expected_amount, expected_currency, expected_wallet, status, status_code, version, created_at, updated_at) ` +
      `SELECT ${attemptBase} + q.seq, ${id}, CONCAT('seed${base}-', q.seq), CONCAT('op-seed${base}-', q.seq), t.expected_amount, t.expected_currency, t.expected_wallet, IF(${pending}, 'pending', 'success'), IF(${pending}, 2, 0), 2, ${created}, ${created} ` +
      `FROM wp_card2crypto_attempts t JOIN seq_1_to_${count} q WHERE t.order_id = ${template};`,
    `INSERT INTO wp_card2crypto_operations (attempt_id, order_id, operation_id, status, status_code, version, created_at, updated_at) ` +
      `SELECT ${attemptBase} + q.seq, ${id}, CONCAT('op-seed${base}-', q.seq), IF(${pending}, 'pending', 'success'), IF(${pending}, 2, 0), 2, ${created}, ${created} FROM seq_1_to_${count} q;`,
    `INSERT INTO wp_card2crypto_events (event_key, attempt_id, operation_id, status, status_code, source, outcome, received_at) ` +
      `SELECT SHA2(CONCAT('seed${base}-', q.seq, '-', e.code), 256), ${attemptBase} + q.seq, CONCAT('op-seed${base}-', q.seq), e.status, e.code, 'callback', 'applied', ${created} FROM seq_1_to_${count} q ` +
      `JOIN (SELECT 'pending' AS status, 2 AS code UNION ALL SELECT 'success', 0) e WHERE e.code = 2 OR NOT ${pending};`,
    'ANALYZE TABLE wp_wc_orders, wp_wc_orders_meta, wp_wc_order_operational_data, wp_wc_order_addresses, wp_comments, wp_card2crypto_attempts, wp_card2crypto_operations, wp_card2crypto_events;',
  ];
  // One statement a call: each stays inside the client's time limit.
  for (const statement of statements) {
    await sql(statement);
  }
  return { firstId: base + 1, count, seconds: (performance.now() - t0) / 1000, keyOf: (n) => `wc_order_s${String(base + n).padStart(12, '0')}` };
}
