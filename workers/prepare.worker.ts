/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import { prepareWithTallies, type PrepareApi } from '../src/lib/store/prepare-conversation';
import { exposeApi } from './expose';

/*
 * The prepare worker: an import's conversations through write-time safety and hashing
 * (src/lib/store/prepare-conversation.ts) beside the thread that parses and writes them. Started by
 * the importer's host (src/lib/store/prepare-worker-host.ts) for one import.
 */
const api: PrepareApi = { prepare: prepareWithTallies };
exposeApi(api);
