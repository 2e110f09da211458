/** How many secrets' keys are kept; plenty for rotation across a few channels. */
const MAX_CACHED_KEYS = 32;

/**
 * A small bounded cache of derived keys per secret, so each secret is imported once.
 * When full, the oldest entry is dropped (insertion order).
 */
export function createKeyCache<TKey>(create: (secret: string) => TKey): (secret: string) => TKey {
  const cache = new Map<string, TKey>();
  return (secret) => {
    let key = cache.get(secret);
    if (key === undefined) {
      key = create(secret);
      if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value as string);
      cache.set(secret, key);
    }
    return key;
  };
}
