/**
 * Durability of an acknowledged write: Redis replicates asynchronously, so a write the primary
 * acknowledged can be lost if the primary dies before a replica has it. `WAIT 1` on the
 * connection that wrote blocks until a replica has every write of that connection.
 */
import type { Cluster, Redis } from 'ioredis';
import { CspwatchRedisError } from '../errors';
import { keySlot } from './key-slot';

/**
 * What a write waits for before it is acknowledged:
 * - `'primary'`: the primary stored it (in memory, and in its AOF within a second with
 *   `appendfsync everysec`). A primary that dies before a replica got the write loses it.
 * - `'replicated'`: the primary stored it and at least one replica confirmed it (`WAIT 1`), so
 *   a failover to that replica keeps it.
 */
export type Durability = 'primary' | 'replicated';

/** The connection of `client` that writes `key`: the client, or the cluster node owning its slot. */
function connectionFor(client: Redis | Cluster, key: string): Redis | undefined {
  if (!('isCluster' in client && client.isCluster)) return client as Redis;
  const cluster = client as Cluster;
  const owner = cluster.slots[keySlot(key)]?.[0];
  return cluster
    .nodes('master')
    .find((node) => `${node.options.host}:${node.options.port}` === owner);
}

/** The durability levels, for option checks. */
export const DURABILITIES: readonly Durability[] = ['primary', 'replicated'];

/**
 * Waits until at least one replica has every write made so far on the connection that wrote
 * `key`; throws `not_replicated` when none confirmed within `timeoutMs`.
 */
export async function waitForReplica(
  client: Redis | Cluster,
  key: string,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const connection = connectionFor(client, key);
  const replicas = connection ? await connection.wait(1, timeoutMs) : 0;
  if (replicas < 1) {
    throw new CspwatchRedisError(
      'not_replicated',
      `${what}: the primary stored it, but no replica confirmed it within ${timeoutMs} ms, so a failover could lose it`,
    );
  }
}
