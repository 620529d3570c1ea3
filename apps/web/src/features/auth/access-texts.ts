/** The flag shown to READONLY users (spec section 6); also why they cannot create projects. */
export const READ_ONLY_FLAG = 'Read-only access - contact administrator';
