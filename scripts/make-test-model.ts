/**
 * Generates a tiny BERT-shaped ONNX embedding model with a WordPiece tokenizer, for tests of the
 * real transformers.js loading path (Node and browser) without downloading weights. It proves the
 * path works end to end, not semantics: its vectors are mean-pooled random word embeddings.
 *
 * Graph: input_ids, attention_mask (int64 [batch, seq]) -> Gather(embedding table)
 * -> multiply by the (float, unsqueezed) mask -> last_hidden_state [batch, seq, hidden].
 *
 * And a tiny cross-encoder (`tiny-cross-encoder`, BertForSequenceClassification, one logit) for the
 * reranker's loading path: its logit is the number of shared content words of the vocabulary
 * between the pair's two segments (one-hot word embeddings summed per segment, by token_type_ids,
 * then a dot product), so it ranks lexically and exactly, which makes its tests readable; it is
 * not a semantic model.
 *
 *   npm run make:test-model            # writes static/test-models/{tiny-bert,tiny-cross-encoder}/ (git-ignored)
 *   npm run make:test-model -- <dir>   # elsewhere; the model folders are <dir>/tiny-bert and <dir>/tiny-cross-encoder
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

export const TINY_BERT_ID = 'tiny-bert';
export const TINY_CROSS_ENCODER_ID = 'tiny-cross-encoder';
export const TINY_BERT_DIMS = 32;
export const DEFAULT_TEST_MODEL_ROOT = 'static/test-models';

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = (
  'the a an and or but of to in on at for with about from by is are was were be been have has had do does did ' +
  'i you he she it we they me my your our their this that what which who when where why how not no yes ' +
  'garden maple moss stone pond water tea tree plant flower rake gravel lantern path bridge fish koi bamboo ' +
  'budget money plan trip travel music song book read paint art run walk cook food friend family work day ' +
  'week year time morning night home city school idea note memory vault search question answer'
).split(' ');
const CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
const PUNCT = '.,!?;:\'"()-/'.split('');

export function tinyVocab(): string[] {
  return [...SPECIALS, ...PUNCT, ...CHARS, ...CHARS.map((c) => `##${c}`), ...WORDS];
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const tensorType = (elemType: number, dims: (number | string)[]) => ({
  tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) } },
});

export function tinyBertOnnx(vocabSize: number, hidden = TINY_BERT_DIMS, seed = 1234): Uint8Array {
  const rng = mulberry32(seed);
  const table = Array.from({ length: vocabSize * hidden }, () => rng() * 2 - 1);
  const { FLOAT, INT64 } = onnx.TensorProto.DataType;
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'engram-vault make-test-model',
    graph: {
      name: 'tiny-bert',
      initializer: [
        { name: 'embeddings', dims: [vocabSize, hidden], dataType: FLOAT, floatData: table },
        { name: 'unsqueeze_axes', dims: [1], dataType: INT64, int64Data: [2] },
      ],
      node: [
        {
          opType: 'Gather',
          input: ['embeddings', 'input_ids'],
          output: ['token_embeddings'],
          attribute: [{ name: 'axis', type: 2, i: 0 }],
        },
        { opType: 'Cast', input: ['attention_mask'], output: ['mask_float'], attribute: [{ name: 'to', type: 2, i: FLOAT }] },
        { opType: 'Unsqueeze', input: ['mask_float', 'unsqueeze_axes'], output: ['mask_3d'] },
        { opType: 'Mul', input: ['token_embeddings', 'mask_3d'], output: ['last_hidden_state'] },
      ],
      input: [
        { name: 'input_ids', type: tensorType(INT64, ['batch', 'sequence']) },
        { name: 'attention_mask', type: tensorType(INT64, ['batch', 'sequence']) },
      ],
      output: [{ name: 'last_hidden_state', type: tensorType(FLOAT, ['batch', 'sequence', hidden]) }],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** Words the tiny cross-encoder does not count (they match everything). */
const STOP = new Set(
  'the a an and or but of to in on at for with about from by is are was were be been have has had do does did i you he she it we they me my your our their this that what which who when where why how not no yes'.split(
    ' ',
  ),
);

/** The content words of the vocabulary, each with its own dimension of the cross-encoder. */
export function crossEncoderWords(vocab: readonly string[]): string[] {
  return vocab.filter((t) => WORDS.includes(t) && !STOP.has(t));
}

/**
 * The tiny cross-encoder: logits[b, 0] = sum over content words w of count_A(w) x count_B(w),
 * where A is segment 0 (the query) and B segment 1 (the passage) of the pair.
 */
export function tinyCrossEncoderOnnx(vocab: readonly string[]): Uint8Array {
  const content = crossEncoderWords(vocab);
  const hidden = content.length;
  const table = new Array<number>(vocab.length * hidden).fill(0);
  vocab.forEach((token, id) => {
    const dim = content.indexOf(token);
    if (dim >= 0) table[id * hidden + dim] = 1;
  });
  const { FLOAT, INT64 } = onnx.TensorProto.DataType;
  const cast = (input: string, output: string) => ({
    opType: 'Cast',
    input: [input],
    output: [output],
    attribute: [{ name: 'to', type: 2, i: FLOAT }],
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'engram-vault make-test-model',
    graph: {
      name: 'tiny-cross-encoder',
      initializer: [
        { name: 'embeddings', dims: [vocab.length, hidden], dataType: FLOAT, floatData: table },
        { name: 'axis_2', dims: [1], dataType: INT64, int64Data: [2] },
        { name: 'axis_1', dims: [1], dataType: INT64, int64Data: [1] },
      ],
      node: [
        { opType: 'Gather', input: ['embeddings', 'input_ids'], output: ['tokens'], attribute: [{ name: 'axis', type: 2, i: 0 }] },
        cast('attention_mask', 'mask'),
        cast('token_type_ids', 'segment'),
        { opType: 'Mul', input: ['mask', 'segment'], output: ['mask_b'] },
        { opType: 'Sub', input: ['mask', 'mask_b'], output: ['mask_a'] },
        { opType: 'Unsqueeze', input: ['mask_a', 'axis_2'], output: ['mask_a3'] },
        { opType: 'Unsqueeze', input: ['mask_b', 'axis_2'], output: ['mask_b3'] },
        { opType: 'Mul', input: ['tokens', 'mask_a3'], output: ['tokens_a'] },
        { opType: 'Mul', input: ['tokens', 'mask_b3'], output: ['tokens_b'] },
        { opType: 'ReduceSum', input: ['tokens_a', 'axis_1'], output: ['bag_a'], attribute: [{ name: 'keepdims', type: 2, i: 0 }] },
        { opType: 'ReduceSum', input: ['tokens_b', 'axis_1'], output: ['bag_b'], attribute: [{ name: 'keepdims', type: 2, i: 0 }] },
        { opType: 'Mul', input: ['bag_a', 'bag_b'], output: ['shared'] },
        { opType: 'ReduceSum', input: ['shared', 'axis_1'], output: ['logits'], attribute: [{ name: 'keepdims', type: 2, i: 1 }] },
      ],
      input: [
        { name: 'input_ids', type: tensorType(INT64, ['batch', 'sequence']) },
        { name: 'attention_mask', type: tensorType(INT64, ['batch', 'sequence']) },
        { name: 'token_type_ids', type: tensorType(INT64, ['batch', 'sequence']) },
      ],
      output: [{ name: 'logits', type: tensorType(FLOAT, ['batch', 1]) }],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

export function tinyBertTokenizer(vocab: readonly string[], pairTypeId = 0): object {
  const ids = Object.fromEntries(vocab.map((token, id) => [token, id]));
  const special = (content: string) => ({
    id: ids[content],
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const seq = (id: 'A' | 'B') => ({ Sequence: { id, type_id: id === 'B' ? pairTypeId : 0 } });
  const tok = (id: string, typeId = 0) => ({ SpecialToken: { id, type_id: typeId } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [tok('[CLS]'), seq('A'), tok('[SEP]')],
      pair: [tok('[CLS]'), seq('A'), tok('[SEP]'), seq('B'), tok('[SEP]', pairTypeId)],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [ids['[CLS]']], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [ids['[SEP]']], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
  };
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const TOKENIZER_CONFIG = {
  tokenizer_class: 'BertTokenizer',
  do_lower_case: true,
  model_max_length: 512,
  cls_token: '[CLS]',
  sep_token: '[SEP]',
  pad_token: '[PAD]',
  unk_token: '[UNK]',
  mask_token: '[MASK]',
};

/** Writes the model folder (`<root>/tiny-bert/`) and returns its path. */
export function makeTestModel(root = DEFAULT_TEST_MODEL_ROOT): string {
  const dir = resolve(root, TINY_BERT_ID);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const vocab = tinyVocab();
  writeFileSync(join(dir, 'onnx', 'model.onnx'), tinyBertOnnx(vocab.length));
  writeFileSync(join(dir, 'tokenizer.json'), json(tinyBertTokenizer(vocab)));
  writeFileSync(join(dir, 'tokenizer_config.json'), json(TOKENIZER_CONFIG));
  writeFileSync(
    join(dir, 'config.json'),
    json({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: TINY_BERT_DIMS,
      vocab_size: vocab.length,
      num_hidden_layers: 0,
      num_attention_heads: 1,
      max_position_embeddings: 512,
    }),
  );
  return dir;
}

/** Writes the cross-encoder folder (`<root>/tiny-cross-encoder/`) and returns its path. */
export function makeTestCrossEncoder(root = DEFAULT_TEST_MODEL_ROOT): string {
  const dir = resolve(root, TINY_CROSS_ENCODER_ID);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  const vocab = tinyVocab();
  writeFileSync(join(dir, 'onnx', 'model.onnx'), tinyCrossEncoderOnnx(vocab));
  writeFileSync(join(dir, 'tokenizer.json'), json(tinyBertTokenizer(vocab, 1)));
  writeFileSync(join(dir, 'tokenizer_config.json'), json(TOKENIZER_CONFIG));
  writeFileSync(
    join(dir, 'config.json'),
    json({
      model_type: 'bert',
      architectures: ['BertForSequenceClassification'],
      hidden_size: crossEncoderWords(vocab).length,
      vocab_size: vocab.length,
      num_hidden_layers: 0,
      num_attention_heads: 1,
      max_position_embeddings: 512,
      num_labels: 1,
      id2label: { '0': 'LABEL_0' },
      label2id: { LABEL_0: 0 },
    }),
  );
  return dir;
}

if (process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url) {
  const root = process.argv[2] ?? DEFAULT_TEST_MODEL_ROOT;
  console.log(`tiny BERT test model written to ${makeTestModel(root)}`);
  console.log(`tiny cross-encoder test model written to ${makeTestCrossEncoder(root)}`);
}
