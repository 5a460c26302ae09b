/// <reference lib="webworker" />
// The Trusted Types default policy of this worker, first (src/lib/trusted-types.ts).
import '../src/lib/trusted-types';
import { ImportService } from '../src/lib/services/import/import-service';
import { openVault } from '../src/lib/store/vault';
import { exposeApi } from './expose';

/*
 * The import worker: export files and captured chats, parsed and written raw-first (staged, then
 * published) off the page's thread (src/lib/services/import/import-service.ts).
 */
exposeApi(new ImportService(openVault(), (self.navigator as Navigator | undefined)?.locks));
