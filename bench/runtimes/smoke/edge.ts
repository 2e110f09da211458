/**
 * Entry of the smoke suite for the Vercel edge runtime (`@edge-runtime/vm`): an IIFE bundle
 * that puts the suite on `globalThis` for the host to call inside the VM.
 */
import { runSmoke } from './suite.js';

(globalThis as { cspwatchSmoke?: typeof runSmoke }).cspwatchSmoke = runSmoke;
