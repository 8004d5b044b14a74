import { describe, expect, it } from 'vitest';
import { planOpenAiModel, deepseekModelId } from './openai-models';
import { priceUsd } from './prices';

describe('priceUsd', () => {
  it('prices known models per million tokens, input and output apart', () => {
    expect(priceUsd('claude-sonnet-4-5', 1_000_000, 0)).toBe(3);
    expect(priceUsd('claude-sonnet-4-5-20250929', 0, 1_000_000)).toBe(15);
    expect(priceUsd('claude-opus-4-1', 1_000_000, 1_000_000)).toBe(90);
    expect(priceUsd('claude-opus-4-5', 1_000_000, 1_000_000)).toBe(30);
    expect(priceUsd('gpt-4o-mini', 2_000_000, 1_000_000)).toBeCloseTo(0.9);
    expect(priceUsd('gpt-4o', 1_000_000, 0)).toBe(2.5);
    expect(priceUsd('gpt-5-mini', 0, 1_000_000)).toBe(2);
    expect(priceUsd('o3-mini-high', 1_000_000, 0)).toBe(1.1);
    expect(priceUsd('o3', 1_000_000, 0)).toBe(2);
    expect(priceUsd('deepseek-r1', 1_000_000, 1_000_000)).toBeCloseTo(0.7);
  });

  it('knows no price for local or unknown models, and zero tokens cost nothing', () => {
    expect(priceUsd('llama3.1:8b', 1000, 1000)).toBeUndefined();
    expect(priceUsd('rehearsal', 1000, 1000)).toBeUndefined();
    expect(priceUsd('gpt-4.1', 0, 0)).toBe(0);
  });
});

describe('model names', () => {
  it('splits an effort suffix, marks reasoning models, and routes Responses-only models', () => {
    expect(planOpenAiModel('o3-mini-high')).toEqual({
      model: 'o3-mini',
      reasoningEffort: 'high',
      reasoning: true,
      api: 'chat',
    });
    expect(planOpenAiModel('gpt-4.1')).toEqual({
      model: 'gpt-4.1',
      reasoningEffort: undefined,
      reasoning: false,
      api: 'chat',
    });
    expect(planOpenAiModel('gpt-5')).toMatchObject({ reasoning: true, api: 'chat' });
    expect(planOpenAiModel('gpt-5-chat-latest')).toMatchObject({ reasoning: false });
    expect(planOpenAiModel('gpt-5.1-chat-latest')).toMatchObject({ reasoning: false });
    expect(planOpenAiModel('gpt-5.2-pro').api).toBe('responses');
    expect(planOpenAiModel('gpt-5.1-codex-max').api).toBe('responses');
    expect(planOpenAiModel('o3-pro').api).toBe('responses');
    expect(planOpenAiModel('gpt-5-codex').api).toBe('responses');
    expect(deepseekModelId('deepseek-r1')).toBe('deepseek-reasoner');
    expect(deepseekModelId('deepseek-chat')).toBe('deepseek-chat');
  });
});
