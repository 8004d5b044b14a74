import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// Test support: a local OTLP/HTTP trace receiver on port 0. It decodes what arrives, JSON or
// protobuf (a minimal decoder of the ExportTraceServiceRequest fields the tests read), into
// plain spans with hex ids and attribute values.

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  status: { code: number; message: string };
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  bodies: Buffer[];
  requests: { contentType: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

// ---- protobuf wire format: varints, length-delimited fields, fixed64 ----
type Field = { no: number; wire: number; value: bigint | Buffer };

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let i = 0;
  const varint = (): bigint => {
    let shift = 0n;
    let v = 0n;
    for (;;) {
      const b = buf[i++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, value: varint() });
    else if (wire === 1) {
      out.push({ no, wire, value: buf.readBigUInt64LE(i) });
      i += 8;
    } else if (wire === 2) {
      const len = Number(varint());
      out.push({ no, wire, value: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 5) {
      out.push({ no, wire, value: BigInt(buf.readUInt32LE(i)) });
      i += 4;
    } else throw new Error(`protobuf wire type ${wire} not handled`);
  }
  return out;
}
const bytes = (f: Field[], no: number) => f.filter((x) => x.no === no).map((x) => x.value as Buffer);
const first = (f: Field[], no: number) => f.find((x) => x.no === no)?.value;

function anyValue(buf: Buffer): unknown {
  const f = fields(buf)[0];
  if (!f) return undefined;
  switch (f.no) {
    case 1:
      return (f.value as Buffer).toString('utf8');
    case 2:
      return f.value === 1n;
    case 3:
      return Number(BigInt.asIntN(64, f.value as bigint));
    case 4: {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(f.value as bigint);
      return b.readDoubleLE(0);
    }
    case 5:
      return bytes(fields(f.value as Buffer), 1).map(anyValue);
    default:
      return undefined;
  }
}
function keyValues(list: Buffer[]): Record<string, unknown> {
  return Object.fromEntries(
    list.map((kv) => {
      const f = fields(kv);
      return [(first(f, 1) as Buffer).toString('utf8'), anyValue((first(f, 2) as Buffer) ?? Buffer.alloc(0))];
    }),
  );
}

function decodeProtobuf(body: Buffer): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of bytes(fields(body), 1)) {
    const rsf = fields(rs);
    const res = first(rsf, 1) as Buffer | undefined;
    const resource = res ? keyValues(bytes(fields(res), 1)) : {};
    for (const ss of bytes(rsf, 2)) {
      for (const sp of bytes(fields(ss), 2)) {
        const f = fields(sp);
        const hex = (no: number) => ((first(f, no) as Buffer | undefined) ?? Buffer.alloc(0)).toString('hex');
        const st = first(f, 15) as Buffer | undefined;
        const sf = st ? fields(st) : [];
        out.push({
          traceId: hex(1),
          spanId: hex(2),
          parentSpanId: hex(4),
          name: ((first(f, 5) as Buffer) ?? Buffer.alloc(0)).toString('utf8'),
          kind: Number(first(f, 6) ?? 0n),
          startNs: (first(f, 7) as bigint) ?? 0n,
          endNs: (first(f, 8) as bigint) ?? 0n,
          attributes: keyValues(bytes(f, 9)),
          status: {
            code: Number(first(sf, 3) ?? 0n),
            message: ((first(sf, 2) as Buffer) ?? Buffer.alloc(0)).toString('utf8'),
          },
          resource,
        });
      }
    }
  }
  return out;
}

// ---- OTLP/JSON ----
function jsonValue(v: any): unknown {
  if (!v) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}
const jsonAttrs = (list: any[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));

function decodeJson(body: Buffer): ReceivedSpan[] {
  const req = JSON.parse(body.toString('utf8'));
  const out: ReceivedSpan[] = [];
  for (const rs of req.resourceSpans ?? []) {
    const resource = jsonAttrs(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: s.kind,
          startNs: BigInt(s.startTimeUnixNano),
          endNs: BigInt(s.endTimeUnixNano),
          attributes: jsonAttrs(s.attributes),
          status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
          resource,
        });
      }
    }
  }
  return out;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const r: OtlpReceiver = { url: '', spans: [], bodies: [], requests: [], close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = String(req.headers['content-type'] ?? '');
      r.bodies.push(body);
      r.requests.push({ contentType, headers: req.headers });
      if (req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      r.spans.push(...(contentType.includes('json') ? decodeJson(body) : decodeProtobuf(body)));
      res.writeHead(200, {
        'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf',
      });
      res.end(contentType.includes('json') ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.close = () => new Promise((ok) => server.close(() => ok()));
  return r;
}
