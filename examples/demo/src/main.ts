/**
 * `pnpm demo`: the whole SDK in one command, on loopback with embedded defaults.
 */
import { runDemo } from './demo';

try {
  const summary = await runDemo();
  if (!summary.ok) process.exitCode = 1;
} catch (error) {
  console.error('The demo failed:', error);
  process.exitCode = 1;
}
