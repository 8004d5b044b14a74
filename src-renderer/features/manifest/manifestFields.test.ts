import { describe, expect, it } from 'vitest';
import { MANIFEST_FIELDS, readFields, writeField } from './manifestFields';

const text = `# a worker
name: writer # the name
version: 0.1.0
inference:
  model: rehearsal
  driver:
    artifact: capsule/driver-rehearsal
artifacts:
  - name: murmur/driver-anthropic
    gateway:
      api_key: \${ANTHROPIC_API_KEY} # from Secrets
`;
const field = (key: string) => MANIFEST_FIELDS.find((f) => f.key === key)!;

describe('manifest form fields', () => {
  it('reads the single-value fields', () => {
    expect(readFields(text)).toMatchObject({ name: 'writer', max_turns: '', temperature: '', role: '' });
  });

  it('writes a nested field and keeps comments and ${VAR} as written', () => {
    const out = writeField(text, field('budget_usd'), '0.25');
    expect(out).toContain('# a worker');
    expect(out).toContain('name: writer # the name');
    expect(out).toContain('api_key: ${ANTHROPIC_API_KEY} # from Secrets');
    expect(out).toMatch(/inference:\n(.*\n)* {2}budget:\n {4}max_usd: 0.25\n/);
    expect(readFields(out)?.budget_usd).toBe('0.25');
  });

  it('writes numbers as numbers, other text as text (the checker then names it), and empty removes', () => {
    const withTurns = writeField(text, field('max_turns'), '5');
    expect(withTurns).toContain('max_turns: 5\n');
    expect(writeField(text, field('temperature'), '0.7')).toContain('temperature: 0.7\n');
    expect(writeField(text, field('queue_depth'), 'many')).toContain('queue_depth: many\n');
    expect(writeField(text, field('system_prompt'), 'true')).toContain('system_prompt: "true"\n');
    expect(writeField(withTurns, field('max_turns'), '')).toBe(text);
  });

  it('writes a multi-line system prompt as a block, without folding long lines', () => {
    const prompt = `You are careful. ${'Long sentence. '.repeat(12)}\nSecond line.`;
    const out = writeField(text, field('system_prompt'), prompt);
    expect(readFields(out)?.system_prompt).toBe(prompt);
    expect(out).toContain('Second line.');
  });

  it('refuses to read broken YAML and leaves it untouched', () => {
    expect(readFields('name: [oops')).toBeNull();
    expect(writeField('name: [oops', field('name'), 'x')).toBe('name: [oops');
  });
});
