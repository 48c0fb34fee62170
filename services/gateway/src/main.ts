import { setFlagsFromString } from 'node:v8';
import { SERVICE_NODE_ARGS } from '@chat/contracts';
import { configOrExit, createLogger, runService } from '@chat/kit';
import { start } from './app';
import { readConfig } from './config';

const config = configOrExit('gateway', () => readConfig());
const log = createLogger('gateway', config.LOG_LEVEL);
// Read by V8 at every full collection, so it can be set now; the young generation's size
// cannot, and comes from the command line (SERVICE_NODE_ARGS, ADR 0004).
if (config.HEAP_GROWING_PERCENT > 0) setFlagsFromString(`--heap-growing-percent=${config.HEAP_GROWING_PERCENT}`);
const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
const missing = SERVICE_NODE_ARGS.gateway.filter((arg) => !given.includes(arg));
if (missing.length) log.warn({ missing }, 'started without its node options: long-poll latency and memory will suffer');

// Its pods get 100 s to stop (k8s/base/gateway.yaml: a long upload may be in flight), not the
// usual 30: its stop may take 90 of them, after the 5 s preStop sleep.
runService('gateway', () => start(), log, 90_000);
