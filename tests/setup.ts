// Every Node test gets an in-memory IndexedDB, so store code runs unchanged.
import 'fake-indexeddb/auto';
