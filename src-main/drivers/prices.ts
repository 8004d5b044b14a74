import { deepseekModelId, planOpenAiModel } from './openai-models';

// List prices in US dollars per million tokens (input, output), as the providers published them
// in 2025. Used by the loop's spend ceiling (inference.budget.max_usd); a model not listed here
// has no price, and then only the token ceiling applies. Cache discounts are ignored, so the
// figure errs on the high side, which is the safe side for a ceiling. Later versions of a family
// whose tier price has held (Sonnet at 3/15, gpt-5.x) are priced as the family: check this table
// when a provider changes prices.

type Price = readonly [inPerMTok: number, outPerMTok: number];

// First match wins: specific names before their families.
const TABLE: readonly (readonly [RegExp, Price])[] = [
  [/^claude-opus-4-[5-9]/, [5, 25]],
  [/^claude-(opus-4|3-opus)/, [15, 75]],
  [/^claude-(sonnet-[3-9]|3-[57]-sonnet|3-sonnet)/, [3, 15]],
  [/^claude-(haiku-4|4-5-haiku)/, [1, 5]],
  [/^claude-3-5-haiku/, [0.8, 4]],
  [/^claude-3-haiku/, [0.25, 1.25]],
  [/^gpt-5[\w.]*-pro/, [15, 120]],
  [/^gpt-5[\w.]*-nano/, [0.05, 0.4]],
  [/^gpt-5[\w.]*-mini/, [0.25, 2]],
  [/^gpt-5/, [1.25, 10]],
  [/^gpt-4\.1-nano/, [0.1, 0.4]],
  [/^gpt-4\.1-mini/, [0.4, 1.6]],
  [/^gpt-4\.1/, [2, 8]],
  [/^gpt-4o-mini/, [0.15, 0.6]],
  [/^gpt-4o/, [2.5, 10]],
  [/^o1-pro/, [150, 600]],
  [/^o3-pro/, [20, 80]],
  [/^o1-mini|^o3-mini|^o4-mini/, [1.1, 4.4]],
  [/^o1/, [15, 60]],
  [/^o3/, [2, 8]],
  [/^deepseek-(chat|reasoner)$/, [0.28, 0.42]],
];

/** A model's list price (US dollars per million tokens, input and output), or undefined when not known. */
export function pricePerMTok(model: string): Price | undefined {
  const name = deepseekModelId(planOpenAiModel(model.toLowerCase()).model);
  return TABLE.find(([pattern]) => pattern.test(name))?.[1];
}

/** What a number of tokens costs on a model, or undefined when the model's price is not known. */
export function priceUsd(model: string, tokensIn: number, tokensOut: number): number | undefined {
  const price = pricePerMTok(model);
  if (!price) return undefined;
  return (tokensIn * price[0] + tokensOut * price[1]) / 1_000_000;
}
