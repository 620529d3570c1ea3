const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Methods that change data: READONLY accounts may not use them, admins may not on others' projects. */
export function isWriteMethod(method: string): boolean {
  return WRITE_METHODS.has(method);
}
