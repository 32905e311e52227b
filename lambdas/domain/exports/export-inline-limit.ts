/**
 * The largest export returned in the request: a Lambda response holds at most 6 MB, and the bytes go
 * base64-encoded through API Gateway. The variable {@link EXPORT_INLINE_MAX_BYTES_ENVIRONMENT}
 * lowers it (the stack sets it from the context value `exportInlineMaxBytes`; tests).
 */
export const EXPORT_INLINE_MAX_BYTES = 4 * 1024 * 1024;
export const EXPORT_INLINE_MAX_BYTES_ENVIRONMENT = 'EXPORT_INLINE_MAX_BYTES';
