// A parameterized statement whose Buffer values go to the socket as they are: node-postgres copies every value into one growing bind message, this frames the same message around the Buffers themselves.
import pg from 'pg';
import type { ClientBase } from 'pg';

/** node-postgres's own conversion of a parameter (`pg.utils.prepareValue`): a Buffer as it is, null, or the text it sends. */
const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): Buffer | string | null } }).utils.prepareValue;

/** Buffers at most this long are copied into the framing around them; longer ones are handed to the socket as they are. */
const INLINE_BYTES = 4096;

/** The connection's side node-postgres gives a query it runs (pg/lib/connection.js). */
interface WireConnection {
  stream: { writable: boolean; write(chunk: Buffer): boolean };
  parse(config: { text: string; name?: string; types?: unknown[] }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string; rows?: number }): void;
  sync(): void;
}

const int32 = (n: number) => {
  const b = Buffer.allocUnsafe(4);
  b.writeInt32BE(n, 0);
  return b;
};

/**
 * PostgreSQL's Bind message for `values` on the unnamed portal and statement, as node-postgres writes it (each
 * Buffer in binary format, every other value as its text in text format, results in text), in pieces: the framing
 * and short values copied together, each longer Buffer a piece of its own, not copied.
 */
export function bindPieces(values: readonly unknown[]): Buffer[] {
  const prepared = values.map((v) => prepareValue(v));
  const pieces: Buffer[] = [];
  let small: Buffer[] = [];
  let length = 4;
  const push = (b: Buffer) => {
    small.push(b);
    length += b.length;
  };
  const head = Buffer.alloc(1 + 4 + 2 + 2 + prepared.length * 2 + 2);
  let at = 7; // 'B', the length (written last), the portal's and the statement's empty names
  head.writeUInt16BE(prepared.length, at);
  at += 2;
  for (const v of prepared) {
    head.writeUInt16BE(v === null || typeof v === 'string' ? 0 : 1, at);
    at += 2;
  }
  head.writeUInt16BE(prepared.length, at);
  head[0] = 0x42;
  small.push(head);
  length += head.length - 5;
  for (const v of prepared) {
    if (v === null) push(int32(-1));
    else if (typeof v === 'string') {
      const text = Buffer.from(v, 'utf8');
      push(int32(text.length));
      push(text);
    } else {
      push(int32(v.length));
      if (v.length <= INLINE_BYTES) push(v);
      else {
        pieces.push(Buffer.concat(small));
        small = [];
        pieces.push(v);
        length += v.length;
      }
    }
  }
  push(Buffer.from([0, 1, 0, 0])); // one result format: text
  pieces.push(Buffer.concat(small));
  (pieces[0] as Buffer).writeInt32BE(length, 1);
  return pieces;
}

/** node-postgres's Query with its Bind message written by `bindPieces`: the rest (parse, describe, execute, sync, the answers) as node-postgres does it. */
class BufferQuery extends pg.Query {
  private readonly statement: string;
  private readonly pieces: Buffer[];

  constructor(text: string, values: unknown[], callback: (err: Error | undefined) => void) {
    super(text, values, callback);
    this.statement = text;
    this.pieces = bindPieces(values);
  }

  /** Called by node-postgres inside a cork of the socket: the pieces leave in one write. */
  prepare(connection: WireConnection): void {
    // A statement with no name is parsed every time, as node-postgres's own.
    connection.parse({ text: this.statement });
    for (const piece of this.pieces) if (connection.stream.writable) connection.stream.write(piece);
    connection.describe({ type: 'P', name: '' });
    connection.execute({ portal: '' });
    connection.sync();
  }
}

/** Runs `text` with `values` as `client.query` would (the same bytes reach the server), each Buffer value sent without a copy. */
export function queryBuffers(client: ClientBase, text: string, values: unknown[]): Promise<void> {
  return new Promise((resolve, reject) => {
    client.query(new BufferQuery(text, values, (err) => (err ? reject(err) : resolve())));
  });
}
