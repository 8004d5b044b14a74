import { describe, expect, it } from 'vitest';
import { DRIVER_ARTIFACTS } from '../../../../src-shared/manifest';
import { choosePreset, DRIVER_PRESETS, presetOf, readGateway, setEndpoint, setKeyVar } from './driverPresets';
import { applyEdits, readData, valueAt } from './formDoc';

const base = `# worker
name: w
version: "0.1.0"
inference:
  transport: embedded
  model: rehearsal # offline
  driver:
    artifact: capsule/driver-rehearsal
`;

describe('driver presets', () => {
  it('has one preset for every built-in driver', () => {
    expect(DRIVER_PRESETS.map((p) => p.artifact).sort()).toEqual(Object.keys(DRIVER_ARTIFACTS).sort());
  });

  it('choosing Anthropic writes the driver, the model and a ${VAR} key, never a value', () => {
    const data = readData(base);
    const out = applyEdits(base, ...choosePreset(presetOf('murmur/driver-anthropic')!, data));
    const d = readData(out);
    expect(valueAt(d, ['inference'])).toMatchObject({
      transport: 'http',
      model: 'claude-sonnet-5',
      driver: { artifact: 'murmur/driver-anthropic' },
    });
    expect(valueAt(d, ['artifacts'])).toEqual([
      { name: 'murmur/driver-anthropic', runtime: 'driver', gateway: { api_key: '${ANTHROPIC_API_KEY}' } },
    ]);
    expect(out).toContain('api_key: ${ANTHROPIC_API_KEY}');
    expect(out).toContain('# worker');
    expect(out).toContain('# offline');
    expect(readGateway(d, 'murmur/driver-anthropic')).toEqual({
      endpoint: '',
      keyVar: 'ANTHROPIC_API_KEY',
      keyLiteral: false,
    });
  });

  it('every provider preset writes its key as a ${VAR} of its own name', () => {
    for (const [artifact, name] of [
      ['murmur/driver-openai', 'OPENAI_API_KEY'],
      ['murmur/driver-deepseek', 'DEEPSEEK_API_KEY'],
    ]) {
      const out = applyEdits(base, ...choosePreset(presetOf(artifact)!, readData(base)));
      expect(out).toContain(`api_key: \${${name}}`);
      expect(readGateway(readData(out), artifact).keyVar).toBe(name);
    }
  });

  it('an OpenAI-compatible server gets an endpoint and no key; back to rehearsal keeps the artifact entry', () => {
    const local = applyEdits(base, ...choosePreset(presetOf('capsule/driver-openai-compatible')!, readData(base)));
    expect(readGateway(readData(local), 'capsule/driver-openai-compatible')).toEqual({
      endpoint: 'http://127.0.0.1:11434/v1',
      keyVar: '',
      keyLiteral: false,
    });
    const back = applyEdits(local, ...choosePreset(presetOf('capsule/driver-rehearsal')!, readData(local)));
    expect(valueAt(readData(back), ['inference'])).toMatchObject({ model: 'rehearsal', transport: 'embedded' });
    expect(valueAt(readData(back), ['artifacts', 0, 'name'])).toBe('capsule/driver-openai-compatible');
  });

  it('keeps a model the preset knows, and an existing artifact entry with its ${VAR}s', () => {
    const written =
      `${base}artifacts:\n  - name: murmur/driver-openai\n    gateway:\n      endpoint: "\${OPENAI_BASE}"\n      api_key: \${MY_KEY}\n`.replace(
        'model: rehearsal # offline',
        'model: gpt-4o',
      );
    const out = applyEdits(written, ...choosePreset(presetOf('murmur/driver-openai')!, readData(written)));
    expect(out).toContain('model: gpt-4o');
    expect(out).toContain('endpoint: "${OPENAI_BASE}"');
    expect(out).toContain('api_key: ${MY_KEY}');
    expect(readGateway(readData(out), 'murmur/driver-openai')).toEqual({
      endpoint: '${OPENAI_BASE}',
      keyVar: 'MY_KEY',
      keyLiteral: false,
    });
  });

  it('sets and clears the endpoint and key name; a name that is no variable name is refused', () => {
    const art = 'murmur/driver-deepseek';
    const out = applyEdits(base, setEndpoint(art, 'https://proxy.example.com'), setKeyVar(art, 'DEEPSEEK_KEY'));
    expect(readGateway(readData(out), art)).toEqual({
      endpoint: 'https://proxy.example.com',
      keyVar: 'DEEPSEEK_KEY',
      keyLiteral: false,
    });
    expect(() => applyEdits(out, setKeyVar(art, 'sk-live-123'))).toThrow(/not a secret name/);
    const cleared = applyEdits(out, setKeyVar(art, ''), setEndpoint(art, ''));
    expect(valueAt(readData(cleared), ['artifacts', 0])).toEqual({ name: art, runtime: 'driver' });
    expect(applyEdits(base, setKeyVar(art, ''))).toBe(base);
  });

  it('tells a key written as text from a ${VAR} reference, without handing the text out', () => {
    const literal = `${base}artifacts:\n  - name: murmur/driver-anthropic\n    gateway:\n      api_key: sk-ant-secret\n`;
    const gw = readGateway(readData(literal), 'murmur/driver-anthropic');
    expect(gw).toEqual({ endpoint: '', keyVar: '', keyLiteral: true });
    expect(JSON.stringify(gw)).not.toContain('sk-ant');
  });

  it('the harness preset gives the process transport a command to edit', () => {
    const out = applyEdits(base, ...choosePreset(presetOf('capsule/driver-process')!, readData(base)));
    expect(valueAt(readData(out), ['inference'])).toMatchObject({
      transport: 'process',
      harness: { command: 'my-agent-cli' },
    });
  });
});
