/**
 * Just enough of ONNX's protobuf encoding (onnx.proto, proto2) to write a model file from JS, so
 * the tests can build a small encoder without Python or a model download. Field numbers are those of
 * onnx.proto; repeated numbers are written unpacked, which every protobuf parser reads.
 */

/** TensorProto.DataType values used here. */
export const FLOAT = 1;
export const INT64 = 7;

/** AttributeProto.AttributeType values used here. */
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

class Writer {
  private readonly parts: Uint8Array[] = [];

  varint(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.rawVarint(BigInt.asUintN(64, BigInt(value)));
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.parts.push(bytes);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.rawVarint(BigInt(value.length));
    this.parts.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, writer: Writer): this {
    return this.bytes(field, writer.finish());
  }

  finish(): Uint8Array {
    return Buffer.concat(this.parts);
  }

  private tag(field: number, wireType: number): void {
    this.rawVarint(BigInt((field << 3) | wireType));
  }

  private rawVarint(value: bigint): void {
    const out: number[] = [];
    let rest = value;
    do {
      let byte = Number(rest & 0x7fn);
      rest >>= 7n;
      if (rest > 0n) byte |= 0x80;
      out.push(byte);
    } while (rest > 0n);
    this.parts.push(Uint8Array.from(out));
  }
}

export type Attribute = number | number[] | { float: number };

export interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, Attribute>;
}

export interface Tensor {
  name: string;
  dims: number[];
  /** Float32Array: FLOAT; BigInt64Array: INT64. */
  data: Float32Array | BigInt64Array;
}

/** A graph input or output: element type and dimensions (a string is a symbolic dimension). */
export interface ValueInfo {
  name: string;
  type: typeof FLOAT | typeof INT64;
  dims: (number | string)[];
}

export interface Graph {
  name: string;
  nodes: Node[];
  initializers: Tensor[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

function tensor(value: Tensor): Writer {
  const writer = new Writer();
  for (const dim of value.dims) writer.varint(1, dim);
  writer.varint(2, value.data instanceof Float32Array ? FLOAT : INT64);
  writer.string(8, value.name);
  // raw_data is little-endian, as typed arrays are on the machines this runs on (x64, arm64).
  return writer.bytes(9, new Uint8Array(value.data.buffer, value.data.byteOffset, value.data.byteLength));
}

function attribute(name: string, value: Attribute): Writer {
  const writer = new Writer().string(1, name);
  if (Array.isArray(value)) {
    for (const item of value) writer.varint(8, item);
    return writer.varint(20, ATTRIBUTE_INTS);
  }
  if (typeof value === 'number') return writer.varint(3, value).varint(20, ATTRIBUTE_INT);
  return writer.float(2, value.float).varint(20, ATTRIBUTE_FLOAT);
}

function node(value: Node, index: number): Writer {
  const writer = new Writer();
  for (const input of value.inputs) writer.string(1, input);
  for (const output of value.outputs) writer.string(2, output);
  writer.string(3, `${value.op}_${index}`).string(4, value.op);
  for (const [name, item] of Object.entries(value.attributes ?? {})) writer.message(5, attribute(name, item));
  return writer;
}

function valueInfo(value: ValueInfo): Writer {
  const shape = new Writer();
  for (const dim of value.dims)
    shape.message(1, typeof dim === 'number' ? new Writer().varint(1, dim) : new Writer().string(2, dim));
  const tensorType = new Writer().varint(1, value.type).message(2, shape);
  return new Writer().string(1, value.name).message(2, new Writer().message(1, tensorType));
}

/** The bytes of a ModelProto holding `graph`, for the default ONNX domain at `opset`. */
export function encodeModel(graph: Graph, opset: number): Uint8Array {
  const body = new Writer();
  graph.nodes.forEach((item, index) => body.message(1, node(item, index)));
  body.string(2, graph.name);
  for (const item of graph.initializers) body.message(5, tensor(item));
  for (const item of graph.inputs) body.message(11, valueInfo(item));
  for (const item of graph.outputs) body.message(12, valueInfo(item));
  return new Writer()
    .varint(1, 8) // ir_version 8: opsets up to 18
    .string(2, 'docwright-tests')
    .message(7, body)
    .message(8, new Writer().string(1, '').varint(2, opset))
    .finish();
}
