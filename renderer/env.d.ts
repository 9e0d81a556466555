// The one global the preload exposes: a Transport over IPC (invoke + subscribe, nothing else).
import type { Transport } from '../shared/transport.ts';

declare global {
  interface Window {
    sessionVault?: Transport;
  }
}

export {};
