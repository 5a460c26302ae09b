import { choiceId } from '../../core/api/embedder';
import { rerankerId } from '../../core/api/reranker';
import { TransformersEmbedder } from '../../models/transformers-embedder';
import { TransformersReranker } from '../../models/transformers-reranker';
import { downloadTracker, type EmbedderHost, lexicalEmbedder } from './embedder-host';

/** Node: transformers.js in this process (ONNX Runtime's native CPU backend), embedders and rerankers. */
export function inProcessEmbedderHost(): EmbedderHost {
  return {
    async load(choice, onProgress) {
      if (choice.kind === 'lexical') return lexicalEmbedder();
      const id = choiceId(choice);
      const embedder = await TransformersEmbedder.load({
        model: choice.spec,
        source: choice.origin === 'hub' ? { kind: 'remote' } : { kind: 'local', path: choice.path ?? '' },
        onProgress: onProgress ? downloadTracker(id, onProgress) : undefined,
      });
      return embedder;
    },
    async loadReranker(choice, onProgress) {
      return TransformersReranker.load({
        model: choice.spec,
        source: choice.origin === 'hub' ? { kind: 'remote' } : { kind: 'local', path: choice.path ?? '' },
        onProgress: onProgress ? downloadTracker(rerankerId(choice), onProgress) : undefined,
      });
    },
  };
}
