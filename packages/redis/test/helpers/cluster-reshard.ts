/**
 * Moves one hash slot of a test Redis Cluster from its master to another master, by hand, the
 * way `redis-cli --cluster reshard` moves a slot: `CLUSTER SETSLOT <slot> IMPORTING` on the
 * target, `MIGRATING` on the source, `CLUSTER GETKEYSINSLOT` + `MIGRATE … KEYS` in batches until
 * the slot is empty, then `CLUSTER SETSLOT <slot> NODE <target>` on every master. While the slot
 * is open, clients are redirected with ASK (a key already moved), TRYAGAIN (a multi-key command
 * whose keys are split, or not all there yet) and, once it is closed, MOVED.
 */
import { Redis } from 'ioredis';
import type { RedisClusterHandle } from './redis-cluster';
import { waitFor } from './wait-for';

const HOST = '127.0.0.1';

/** Options of {@link moveSlot}. */
export interface MoveSlotOptions {
  /** Port of the master to move the slot to; default the first other live master. */
  readonly toPort?: number;
  /** Keys per `MIGRATE`, as `redis-cli --cluster reshard --cluster-pipeline`; default 100. */
  readonly batch?: number;
  /**
   * Awaited once the first batch of keys has moved (the slot half-migrated, both sides open):
   * the test waits here for the clients to meet the open slot. Default: carry on at once.
   */
  readonly whileOpen?: () => Promise<void>;
}

/** What a {@link moveSlot} did. */
export interface SlotMove {
  readonly slot: number;
  readonly fromPort: number;
  readonly toPort: number;
  /** Keys moved with `MIGRATE`. */
  readonly keysMoved: number;
  /** From `MIGRATING` set on the source to `NODE` set on every master, in ms. */
  readonly openMs: number;
}

/** `CLUSTER SLOTS` of one node: the master port serving `slot`, or `null`. */
async function servingPort(node: Redis, slot: number): Promise<number | null> {
  const ranges = (await node.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
  const range = ranges.find(([first, last]) => slot >= first && slot <= last);
  return range ? Number(range[2][1]) : null;
}

/**
 * Moves `slot` from the master serving it to another live master and resolves once every live
 * node (replicas included) says the target serves it. Throws if a step is refused (the slot is
 * then left open: the cluster is the test's own and is stopped at teardown).
 */
export async function moveSlot(
  cluster: RedisClusterHandle,
  slot: number,
  options: MoveSlotOptions = {},
): Promise<SlotMove> {
  const batch = options.batch ?? 100;
  const nodes = (await cluster.nodes()).filter((node) => node.alive);
  const masters = nodes.filter((node) => node.role === 'master');
  const source = masters.find((node) =>
    node.slots.some(([first, last]) => slot >= first && slot <= last),
  );
  if (!source) throw new Error(`no live master serves slot ${slot}`);
  const target = masters.find((node) =>
    options.toPort === undefined ? node.port !== source.port : node.port === options.toPort,
  );
  if (!target || target.port === source.port) {
    throw new Error(`no other live master to move slot ${slot} to (from ${source.port})`);
  }
  const clients = new Map(
    nodes.map((node) => {
      const client = new Redis({ host: HOST, port: node.port });
      client.on('error', () => {}); // a failed step rejects its own call
      return [node.port, client] as const;
    }),
  );
  const on = (port: number) => clients.get(port) as Redis;
  try {
    await on(target.port).call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', source.id);
    const opened = Date.now();
    await on(source.port).call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', target.id);
    let keysMoved = 0;
    const moveBatch = async () => {
      const keys = (await on(source.port).call(
        'CLUSTER',
        'GETKEYSINSLOT',
        slot,
        batch,
      )) as string[];
      if (keys.length > 0) {
        await on(source.port).call('MIGRATE', HOST, target.port, '', 0, 5000, 'KEYS', ...keys);
      }
      keysMoved += keys.length;
      return keys.length;
    };
    await moveBatch(); // the slot is now split between the two masters
    await options.whileOpen?.();
    while ((await moveBatch()) > 0) {}
    // Target first, then source, then the others, as redis-cli does: the target owns the slot
    // before the source starts answering MOVED to it.
    const order = [target, source, ...masters.filter((m) => m !== target && m !== source)];
    for (const master of order) {
      await on(master.port).call('CLUSTER', 'SETSLOT', slot, 'NODE', target.id);
    }
    const openMs = Date.now() - opened;
    await waitFor(`every node to see slot ${slot} on ${target.port}`, async () => {
      const views = await Promise.all(nodes.map((node) => servingPort(on(node.port), slot)));
      return views.every((port) => port === target.port);
    });
    return { slot, fromPort: source.port, toPort: target.port, keysMoved, openMs };
  } finally {
    for (const client of clients.values()) client.disconnect();
  }
}
