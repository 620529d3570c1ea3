import type { AdapterFactory } from 'oidc-provider';
// @ts-expect-error -- oidc-provider ships its in-memory store without types; its factory's shape is below
import { createMemoryAdapter as createStore } from 'oidc-provider/lib/adapters/memory_adapter.js';

/** oidc-provider's own in-memory store, the one it falls back to (with a warning) when given none. */
export const createMemoryAdapter = createStore as (clockTolerance?: number) => AdapterFactory;
