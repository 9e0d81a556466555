// The services as a benchmark builds them: V8's heaps sized first, as the app's process entries do (idle-memory.ts).
import { configureHeaps } from '../env/idle-memory.ts';
import { createServices, type Services, type ServicesOptions } from '../app/services.ts';

export function benchServices(options: ServicesOptions): Services {
  configureHeaps();
  return createServices(options);
}
