/**
 * Reading request members with a clear 400 naming the member. Bodies are parsed
 * with core's lossless parser, so numbers arrive as LosslessNumber (their exact
 * text): amounts beyond 2^53 (wei, yoctoNEAR) are read exactly.
 */
import { LosslessNumber, type LosslessJsonObject } from '@card2crypto/core';
import { invalid, missing } from './errors.js';

export type Body = LosslessJsonObject;

export function describe(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  if (value instanceof LosslessNumber) {
    return 'a number';
  }
  return `a ${typeof value}`;
}

export function has(body: Body, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, field);
}

export function requiredString(body: Body, field: string): string {
  if (!has(body, field)) {
    throw missing(field);
  }
  return stringValue(body, field);
}

export function optionalString(body: Body, field: string): string | undefined {
  if (!has(body, field)) {
    return undefined;
  }
  return stringValue(body, field);
}

function stringValue(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string') {
    throw invalid(field, `${field} must be a string, not ${describe(value)}`);
  }
  if (value.trim() === '') {
    throw invalid(field, `${field} must not be empty`);
  }
  if (value.length > 256) {
    throw invalid(field, `${field} is longer than 256 characters`);
  }
  return value;
}

const WHOLE = /^[1-9][0-9]*$/;

/** A positive whole number of minimum units, exact whatever its size. */
export function optionalAmount(body: Body, field: string): bigint | undefined {
  if (!has(body, field)) {
    return undefined;
  }
  const value = body[field];
  if (!(value instanceof LosslessNumber)) {
    throw invalid(field, `${field} must be a number (minimum units), not ${describe(value)}`);
  }
  if (!WHOLE.test(value.text)) {
    throw invalid(field, `${field} must be a whole number of minimum units greater than 0, written in digits; got ${value.text}`);
  }
  return BigInt(value.text);
}

/** Milliseconds since the epoch as a safe integer, or undefined when absent. */
export function optionalTimestamp(body: Body, field: string): number | undefined {
  if (!has(body, field)) {
    return undefined;
  }
  const value = body[field];
  if (!(value instanceof LosslessNumber)) {
    throw invalid(field, `${field} must be a number (milliseconds since 1970-01-01 UTC), not ${describe(value)}`);
  }
  const n = value.value;
  if (!Number.isSafeInteger(n) || n <= 0) {
    throw invalid(field, `${field} must be a whole number of milliseconds since 1970-01-01 UTC, got ${value.text}`);
  }
  return n;
}
