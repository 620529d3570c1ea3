export * from './listing.schema';
export * from './things.schema';
export * from './oauth.schema';
export * from './errors.schema';
export * from './rate-limit.schema';
