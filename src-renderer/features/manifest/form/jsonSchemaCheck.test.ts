import { describe, expect, it } from 'vitest';
import { checkSchemaText } from './jsonSchemaCheck';

describe('the schema field check', () => {
  it('takes a JSON Schema object', () => {
    expect(checkSchemaText('{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}')).toMatchObject({
      ok: true,
    });
  });
  it('names the problem: syntax, not an object, wrong keyword shapes', () => {
    expect(checkSchemaText('{"type": ')).toMatchObject({ ok: false, problem: expect.stringMatching(/^Not JSON yet/) });
    expect(checkSchemaText('[1]')).toMatchObject({ ok: false, problem: expect.stringContaining('JSON object') });
    expect(checkSchemaText('{"type":"obj"}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"obj" is not a JSON Schema type'),
    });
    expect(checkSchemaText('{"properties":{"a":{"type":"strin"}}}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('properties.a.type'),
    });
    expect(checkSchemaText('{"required":"a"}')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('required'),
    });
    expect(checkSchemaText('{"anyOf":{}}')).toMatchObject({ ok: false, problem: expect.stringContaining('anyOf') });
  });
  it('stops at 64 levels', () => {
    let s = '{"type":"string"}';
    for (let i = 0; i < 70; i++) s = `{"type":"object","properties":{"x":${s}}}`;
    expect(checkSchemaText(s)).toMatchObject({ ok: false, problem: expect.stringContaining('deeper than 64') });
  });
});
