/**
 * What parking costs: a channel whose endpoint never answers gets a backlog of alerts; the
 * worker's attempts time out, the channel is disabled after five failures, and every alert is
 * parked. Measured from resume until the channel's parked set holds the whole backlog.
 */
import { randomUUID } from 'node:crypto';
import type { CspwatchEvent } from '@cspwatch/webhooks';
import type { HangingReceiver } from './hanging-receiver.js';
import { type RunSetup, runDeliveries } from './redis-delivery-run.js';
import type { WorkerProcess } from './redis-worker-pool.js';

/** Alerts in the hanging channel's backlog. */
export const PARKING_BACKLOG = 600;
/** The sender's timeout in the parking runs, ms: short, so that the disable comes soon. */
const PARKING_TIMEOUT_MS = 300;

/** Per parked alert, the median over the runs. */
export interface ParkingCost {
  readonly commands: number;
  readonly redisCpuSeconds: number;
  readonly workerCpuSeconds: number;
}

/** Parks a backlog of {@link PARKING_BACKLOG} alerts `rounds` times; medians per parked alert. */
export async function measureParking(
  setup: RunSetup,
  options: {
    readonly worker: WorkerProcess;
    readonly hanging: HangingReceiver;
    readonly alert: CspwatchEvent;
    readonly concurrency: number;
    readonly rounds: number;
  },
): Promise<ParkingCost> {
  const runs: ParkingCost[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    const channel = {
      id: `backlog-${round}`,
      url: options.hanging.url,
      secret: 'bench-parking-secret-0123456789',
    };
    const jobs = Array.from({ length: PARKING_BACKLOG }, () => ({
      channelId: channel.id,
      alert: { ...options.alert, id: randomUUID() },
    }));
    const run = await runDeliveries(setup, {
      kind: 'ours',
      workers: [options.worker],
      concurrency: options.concurrency,
      channels: [channel],
      senderTimeoutMs: PARKING_TIMEOUT_MS,
      maxInFlightPerChannel: 4,
      jobs,
      parkedTarget: { channelId: channel.id, count: PARKING_BACKLOG },
    });
    runs.push({
      commands: run.delivery.commands / PARKING_BACKLOG,
      redisCpuSeconds: run.delivery.cpuSeconds / PARKING_BACKLOG,
      workerCpuSeconds: run.workerCpuSeconds / PARKING_BACKLOG,
    });
  }
  const median = (figure: (cost: ParkingCost) => number) => {
    const sorted = runs.map(figure).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  };
  return {
    commands: median((c) => c.commands),
    redisCpuSeconds: median((c) => c.redisCpuSeconds),
    workerCpuSeconds: median((c) => c.workerCpuSeconds),
  };
}
