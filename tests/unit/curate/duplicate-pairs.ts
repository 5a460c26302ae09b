/**
 * Hand-labelled note pairs for calibrating the term-overlap near-duplicate threshold: paraphrases
 * and reorderings a person would merge, pairs on the same subject that say different things, and
 * hard negatives where one term is swapped.
 */
export const DUPLICATE_PAIRS: readonly { a: string; b: string; duplicate: boolean }[] = [
  { a: 'Prune Japanese maples in late winter.', b: 'Japanese maples are pruned in late winter.', duplicate: true },
  { a: 'The vault stores notes in IndexedDB.', b: 'Notes in the vault are stored in IndexedDB.', duplicate: true },
  { a: 'Use Dexie for the storage layer.', b: 'The storage layer uses Dexie.', duplicate: true },
  { a: 'The export file must stay under 50 MB.', b: 'Export files must stay under 50 MB.', duplicate: true },
  { a: 'Caroline attends an LGBTQ support group.', b: 'Caroline attended the LGBTQ support group.', duplicate: true },
  { a: 'Melanie paints to relax after work.', b: 'Painting helps Melanie relax after work.', duplicate: true },
  { a: 'Run embeddings in a web worker.', b: 'Embeddings run in a web worker.', duplicate: true },
  { a: 'The recall box has focus on load.', b: 'On load, focus is in the recall box.', duplicate: true },
  { a: 'Encrypt the vault file with AES-GCM.', b: 'The vault file is encrypted with AES-GCM.', duplicate: true },
  { a: 'Mulch keeps maple roots cool in summer.', b: 'In summer, mulch keeps the maple roots cool.', duplicate: true },
  { a: 'The index is rebuilt when the embedder changes.', b: 'Changing the embedder rebuilds the index.', duplicate: true },
  { a: 'Jon opened a dance studio.', b: 'Jon has opened his own dance studio.', duplicate: true },
  { a: 'Prune Japanese maples in late winter.', b: 'Japanese maples need acidic soil.', duplicate: false },
  { a: 'The vault stores notes in IndexedDB.', b: 'The vault exports notes as one encrypted file.', duplicate: false },
  { a: 'Use Dexie for the storage layer.', b: 'Use comlink for the worker layer.', duplicate: false },
  { a: 'The export file must stay under 50 MB.', b: 'The export file lists every note.', duplicate: false },
  { a: 'Caroline attends an LGBTQ support group.', b: 'Caroline wants to study counseling.', duplicate: false },
  { a: 'Melanie paints to relax after work.', b: 'Melanie runs to clear her mind after work.', duplicate: false },
  { a: 'Run embeddings in a web worker.', b: 'Run the LLM in a separate web worker.', duplicate: false },
  { a: 'The recall box has focus on load.', b: 'The recall screen shows every candidate score.', duplicate: false },
  { a: 'Encrypt the vault file with AES-GCM.', b: 'Derive the vault key with Argon2id.', duplicate: false },
  { a: 'Mulch keeps maple roots cool in summer.', b: 'Maple leaves scorch in the summer sun.', duplicate: false },
  { a: 'The index is rebuilt when the embedder changes.', b: 'The index label map is checked on load.', duplicate: false },
  { a: 'Jon opened a dance studio.', b: 'Jon lost his banking job.', duplicate: false },
  // Hard negatives: one term swapped on the same frame.
  { a: 'Use SQLite for vault storage.', b: 'Use Dexie for vault storage.', duplicate: false },
  { a: 'Melanie paints lake landscapes.', b: 'Melanie paints family portraits.', duplicate: false },
  { a: 'The team meeting is on Monday.', b: 'The team meeting is on Friday.', duplicate: false },
  { a: 'Caroline adopted a rescue dog.', b: 'Caroline adopted a rescue cat.', duplicate: false },
];
