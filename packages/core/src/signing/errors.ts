/**
 * Thrown by canonicalString() and sign() when a value cannot be signed.
 * `path` is the flattened member name (":"-joined) of the offending value,
 * or "" for the object itself.
 */
export class SigningInputError extends TypeError {
  readonly path: string;

  constructor(path: string, message: string) {
    super(path === '' ? message : `member "${path}": ${message}`);
    this.name = 'SigningInputError';
    this.path = path;
  }
}
