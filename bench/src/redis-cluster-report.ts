/**
 * The tables of the Redis Cluster section: cost per delivery of each setup, the masters'
 * shares, and the capacity projected from the costs.
 */
import { micros, type SetupFigures } from './redis-queue-report.js';
import { median, table } from './report.js';

/** A setup's figures over the rounds (Redis costs over the masters), with its replicas'. */
export interface ClusterSetupFigures extends SetupFigures {
  /** Commands the replicas ran, summed over the rounds (0 without replicas). */
  readonly replicaCommands: number;
  /** Per round, seconds: the replicas' CPU per delivery. */
  readonly replicaCpu: readonly number[];
  /** Per round, seconds per delivery: the masters' idle CPU rate times the run's time. */
  readonly idleCpu: readonly number[];
}

/** One master's figures over the cluster runs. */
export interface MasterFigures {
  /** `host:port` */
  readonly node: string;
  /** Its slot ranges, e.g. `0-5460`. */
  readonly slots: string;
  /** Commands it ran, summed over the rounds (enqueue and delivery). */
  readonly commands: number;
  /** Deliveries of the runs, summed over the rounds. */
  readonly deliveries: number;
  /** Per round, seconds: its CPU per delivery of the whole run. */
  readonly cpu: readonly number[];
}

const perDelivery = (count: number, deliveries: number) => (count / deliveries).toFixed(2);
const perCoreSecond = (seconds: number) => `${Math.round(1 / seconds).toLocaleString('en')}/s`;

/** Commands and Redis CPU per delivery over the masters, the replicas', worker CPU, rate. */
export function clusterCostTable(setups: readonly ClusterSetupFigures[]): string {
  return table(
    [
      'setup',
      'Redis commands per delivery, masters (enqueue + delivery)',
      'Redis CPU per delivery, masters (of which idle rate x run time)',
      'replicas: commands, CPU per delivery',
      'worker CPU per delivery',
      'deliveries/s (record only)',
    ],
    setups.map((s) => [
      s.label,
      `${perDelivery(s.enqueue.commands + s.delivery.commands, s.deliveries)} (${perDelivery(s.enqueue.commands, s.deliveries)} + ${perDelivery(s.delivery.commands, s.deliveries)})`,
      `${micros(median(s.redisCpu))} (${micros(median(s.idleCpu))})`,
      s.replicaCommands === 0
        ? 'none'
        : `${perDelivery(s.replicaCommands, s.deliveries)}, ${micros(median(s.replicaCpu))}`,
      micros(median(s.workerCpu)),
      median(s.rates).toFixed(0),
    ]),
  );
}

/** Each master's slots, share of the commands, commands and CPU per delivery. */
export function mastersTable(masters: readonly MasterFigures[], totalCommands: number): string {
  return table(
    ['master', 'slots', 'share of the commands', 'commands per delivery', 'Redis CPU per delivery'],
    masters.map((m) => [
      m.node,
      m.slots,
      `${((m.commands / totalCommands) * 100).toFixed(1)}%`,
      perDelivery(m.commands, m.deliveries),
      micros(median(m.cpu)),
    ]),
  );
}

/**
 * Deliveries/s one core could sustain at the measured costs: per Redis core
 * 1 / (Redis CPU s per delivery), per worker core 1 / (worker CPU s per delivery). For the
 * cluster (the last setup): each master on a core of its own, the busiest of them (the pace
 * of the cluster when each master has a core), and the three masters' CPU taken together.
 */
export function clusterProjectionTable(
  setups: readonly ClusterSetupFigures[],
  masters: readonly MasterFigures[],
): string {
  const row = (label: string, redis: number, worker?: number) => [
    label,
    micros(redis),
    perCoreSecond(redis),
    worker === undefined ? '' : micros(worker),
    worker === undefined ? '' : perCoreSecond(worker),
  ];
  const cluster = setups.at(-1)!;
  const standalone = setups.slice(0, -1);
  const masterCpu = masters.map((m) => median(m.cpu));
  const busiest = Math.max(...masterCpu);
  return table(
    [
      'Redis',
      'Redis CPU per delivery',
      'deliveries/s per Redis core',
      'worker CPU per delivery',
      'deliveries/s per worker core',
    ],
    [
      ...standalone.map((s) => row(s.label, median(s.redisCpu), median(s.workerCpu))),
      ...masters.map((m, i) => row(`cluster, master ${m.node} alone`, masterCpu[i]!)),
      row('cluster, one core per master: the busiest master', busiest),
      row('cluster, the 3 masters together', median(cluster.redisCpu), median(cluster.workerCpu)),
    ],
  );
}
