/** A refusal of a partner API (or widget) request, written as the project's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const invalid = (field: string, message: string) => new ApiError(400, 'invalid_parameter', message, field);
export const missing = (field: string) => new ApiError(400, 'missing_parameter', `${field} is required`, field);
