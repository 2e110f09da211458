import { webcrypto, createHmac } from 'node:crypto';
import { measure } from 'mitata';
import { cpuNow } from './measure.js';
const key = await webcrypto.subtle.importKey('raw', new TextEncoder().encode('secret-secret'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
const msg = new TextEncoder().encode('x'.repeat(256));
const f = () => webcrypto.subtle.sign('HMAC', key, msg);
const g = () => createHmac('sha256', 'secret-secret').update(msg).digest();
for (const [name, fn] of [['subtle', f], ['hmac', g]] as const)
for (const now of [undefined, cpuNow]) {
  const s = await measure(fn, { min_cpu_time: 200e6, ...(now ? { now } : {}) });
  console.log(name, now ? 'cpu ' : 'wall', s.p50.toFixed(0), s.avg.toFixed(0), s.samples.length);
}
let t = performance.now(); const c = process.cpuUsage(); for (let i = 0; i < 20000; i++) await f(); const cu = process.cpuUsage(c);
console.log('loop subtle wall', ((performance.now() - t) * 1e6 / 20000).toFixed(0), 'cpu', ((cu.user + cu.system) * 1e3 / 20000).toFixed(0));
