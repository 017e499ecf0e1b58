/**
 * A small builder for ONNX graphs on top of `onnx-proto` (protobufjs classes for ModelProto).
 * Only what the USE-lite port needs: float/int64 initializers, nodes with int/float/ints
 * attributes, and symbolic input/output shapes.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const DataType = onnx.TensorProto.DataType;
const AttrType = onnx.AttributeProto.AttributeType;

export type AttrValue = number | number[] | { float: number };
export type Dim = number | string;

export class GraphBuilder {
  private readonly nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  private readonly initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  private readonly inputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  private readonly outputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  private counter = 0;

  /** A fresh value name under a readable prefix. */
  private fresh(prefix: string): string {
    return `${prefix}_${this.counter++}`;
  }

  input(name: string, elemType: 'float' | 'int64', dims: Dim[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, elemType: 'float' | 'int64', dims: Dim[]): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  floats(name: string, dims: number[], data: Float32Array | number[]): string {
    const arr = data instanceof Float32Array ? data : Float32Array.from(data);
    if (arr.length !== dims.reduce((a, b) => a * b, 1))
      throw new Error(`initializer ${name}: ${arr.length} values for shape ${dims.join('x')}`);
    this.initializers.push(
      onnx.TensorProto.create({
        name,
        dims,
        dataType: DataType.FLOAT,
        rawData: new Uint8Array(arr.buffer, arr.byteOffset, arr.byteLength),
      }),
    );
    return name;
  }

  int64s(name: string, dims: number[], data: number[]): string {
    const arr = BigInt64Array.from(data.map((v) => BigInt(v)));
    this.initializers.push(
      onnx.TensorProto.create({ name, dims, dataType: DataType.INT64, rawData: new Uint8Array(arr.buffer) }),
    );
    return name;
  }

  /** Adds a node and returns the names of its outputs. */
  node(
    op: string,
    inputs: string[],
    attrs: Record<string, AttrValue> = {},
    outputCount = 1,
    outputNames?: string[],
  ): string[] {
    const outputs = outputNames ?? Array.from({ length: outputCount }, () => this.fresh(op));
    const attribute = Object.entries(attrs).map(([name, v]) => {
      if (Array.isArray(v)) return onnx.AttributeProto.create({ name, type: AttrType.INTS, ints: v });
      if (typeof v === 'object') return onnx.AttributeProto.create({ name, type: AttrType.FLOAT, f: v.float });
      return onnx.AttributeProto.create({ name, type: AttrType.INT, i: v });
    });
    this.nodes.push(
      onnx.NodeProto.create({ name: this.fresh(`n_${op}`), opType: op, input: inputs, output: outputs, attribute }),
    );
    return outputs;
  }

  /** One-output shorthand. */
  op(op: string, inputs: string[], attrs: Record<string, AttrValue> = {}): string {
    return this.node(op, inputs, attrs)[0];
  }

  encode(opts: { graphName: string; producer: string; opset: number; docString?: string }): Uint8Array {
    const graph = onnx.GraphProto.create({
      name: opts.graphName,
      node: this.nodes,
      initializer: this.initializers,
      input: this.inputs,
      output: this.outputs,
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: opts.producer,
      docString: opts.docString ?? '',
      opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: opts.opset })],
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

function valueInfo(name: string, elemType: 'float' | 'int64', dims: Dim[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: onnx.TypeProto.create({
      tensorType: onnx.TypeProto.Tensor.create({
        elemType: elemType === 'float' ? DataType.FLOAT : DataType.INT64,
        shape: onnx.TensorShapeProto.create({
          dim: dims.map((d) =>
            onnx.TensorShapeProto.Dimension.create(typeof d === 'number' ? { dimValue: d } : { dimParam: d }),
          ),
        }),
      }),
    }),
  });
}
