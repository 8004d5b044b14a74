import { describe, expect, it } from 'vitest';
import { MANIFEST_FIELDS, readFields, writeField } from './manifestFields';

const text = `# a worker
name: writer # the name
version: 0.1.0
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
`;
const field = (key: string) => MANIFEST_FIELDS.find((f) => f.key === key)!;

describe('manifest form fields', () => {
  it('reads the common fields', () => {
    expect(readFields(text)).toMatchObject({ name: 'writer', model: 'rehearsal', driver: 'capsule/driver-rehearsal', max_turns: '', peer_accept: false });
  });

  it('writes a nested field and keeps comments', () => {
    const out = writeField(text, field('internal_port'), '41234');
    expect(out).toContain('# a worker');
    expect(out).toContain('name: writer # the name');
    expect(out).toMatch(/network:\n {2}internal_port: 41234/);
    expect(readFields(out)?.internal_port).toBe('41234');
  });

  it('removes a field set to empty and sets booleans', () => {
    const withTurns = writeField(text, field('max_turns'), '5');
    expect(readFields(withTurns)?.max_turns).toBe('5');
    expect(readFields(writeField(withTurns, field('max_turns'), ''))?.max_turns).toBe('');
    expect(readFields(writeField(text, field('peer_accept'), true))?.peer_accept).toBe(true);
  });

  it('edits the response schema as JSON, writes it as YAML, and ignores text that is no JSON object', () => {
    const schema = '{"type": "object", "properties": {"summary": {"type": "string"}}}';
    const out = writeField(text, field('responds'), schema);
    expect(out).toMatch(/responds:\n {2}type: object\n {2}properties:\n {4}summary:\n {6}type: string/);
    expect(JSON.parse(String(readFields(out)?.responds))).toEqual(JSON.parse(schema));
    expect(writeField(out, field('responds'), '{"type": ')).toBe(out);
    expect(writeField(out, field('responds'), '[1]')).toBe(out);
    expect(readFields(writeField(out, field('responds'), ''))?.responds).toBe('');
  });

  it('refuses to read broken YAML', () => {
    expect(readFields('name: [oops')).toBeNull();
  });
});
