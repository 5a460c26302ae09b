/**
 * Makes sure the generated tiny test model exists where the e2e tests load it: in static/ (the
 * build copies it) and, when the build was made before the model existed, in build/ itself (the
 * server lists its files at start, so this runs before it: playwright.config.ts webServer).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_TEST_MODEL_ROOT, makeTestCrossEncoder, makeTestModel, TINY_BERT_ID, TINY_CROSS_ENCODER_ID } from './make-test-model';

for (const root of [DEFAULT_TEST_MODEL_ROOT, 'build/test-models']) {
  if (root.startsWith('build/') && !existsSync('build')) continue;
  if (!existsSync(join(root, TINY_BERT_ID, 'onnx', 'model.onnx'))) console.log(`tiny BERT test model written to ${makeTestModel(root)}`);
  if (!existsSync(join(root, TINY_CROSS_ENCODER_ID, 'onnx', 'model.onnx'))) {
    console.log(`tiny cross-encoder test model written to ${makeTestCrossEncoder(root)}`);
  }
}
