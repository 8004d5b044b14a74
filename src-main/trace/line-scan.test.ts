import { describe, expect, it } from 'vitest';
import { scanLineHead } from './line-scan';

describe('line head scan', () => {
  it('reads the head of a writer line and declines anything else', () => {
    expect(
      scanLineHead(
        '{"ts":"2026-11-29T10:00:00.000Z","event_type":"tool_call","session_id":"s","task_id":"t","name":"x"}',
      ),
    ).toEqual({
      ts: '2026-11-29T10:00:00.000Z',
      type: 'tool_call',
      sessionId: 's',
      taskId: 't',
    });
    expect(scanLineHead('{"event_type":"tool_call"}')).toBeNull();
    // A session id past the head is for a parse to find.
    expect(
      scanLineHead('{"ts":"2026-11-29T10:00:00.000Z","event_type":"tool_call","name":"x","session_id":"s"}'),
    ).toBeNull();
    expect(
      scanLineHead('{"ts":"2026-11-29T10:00:00.000Z","event_type":"tool_call","name":"x","task_id":"t"}'),
    ).toBeNull();
  });
});
