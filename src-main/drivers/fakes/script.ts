// What a fake provider answers, one reply per request, in order. Shared by the wire encoders.

export interface FakeToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type FakeReply =
  /** A model turn, streamed as SSE when the request asked for a stream, JSON otherwise. */
  | {
      turn: {
        text?: string;
        toolCalls?: FakeToolCall[];
        stop?: 'end_turn' | 'max_tokens' | 'tool_use';
        tokensIn?: number;
        tokensOut?: number;
        deltas?: string[];
      };
    }
  /** An error status with the provider's error body. */
  | { error: { status: number; type: string; message: string; headers?: Record<string, string> } }
  /** The socket is destroyed before any response byte. */
  | { reset: true }
  /** Headers and the first text piece go out, then nothing until the client goes away. */
  | { hang: { text: string } }
  /** Some text goes out, then the socket is destroyed mid-stream. */
  | { breakAfter: { text: string } };

export type FakeTurn = Extract<FakeReply, { turn: unknown }>['turn'];

/** The text deltas of a streamed turn: the ones scripted (they should join to its text), else a few pieces. */
export function textDeltas(turn: FakeTurn): string[] {
  return turn.deltas ?? pieces(turn.text ?? '');
}

/** Splits text into a few pieces so the client really sees several deltas. */
export function pieces(text: string): string[] {
  if (text.length < 4) return text ? [text] : [];
  const third = Math.ceil(text.length / 3);
  return [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
}

export function sse(event: string | undefined, data: unknown): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** One provider's wire format. */
export interface Wire {
  /** Path prefix of the base URL clients are given ('' or '/v1'). */
  basePath: string;
  /** Request paths this wire answers. */
  paths: string[];
  /** SSE chunks of a whole turn. */
  streamTurn(turn: FakeTurn, model: string): string[];
  /** The JSON body of a whole (non-streamed) turn. */
  jsonTurn(turn: FakeTurn, model: string): unknown;
  /** The opening chunks of a stream whose only content is this text (for hang/break). */
  streamStart(text: string, model: string): string[];
  errorBody(type: string, message: string): unknown;
}
