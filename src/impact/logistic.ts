/**
 * Logistic regression, small and deterministic: the weights that turn a change's signs into the
 * chance that it needs any docs change are fitted with it from labelled cases (the benchmark does,
 * and writes them to `judge-model.ts`), and the analysis applies them with `logisticChance`.
 */

/** Weights by feature name, and the bias. */
export interface LogisticWeights {
  bias: number;
  weights: Record<string, number>;
}

/** The chance (0-1) the weights give a set of feature values; a missing feature counts as 0. */
export function logisticChance(model: LogisticWeights, features: Readonly<Record<string, number>>): number {
  let z = model.bias;
  for (const [name, weight] of Object.entries(model.weights)) z += weight * (features[name] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

export interface LogisticExample {
  features: Readonly<Record<string, number>>;
  label: boolean;
}

/**
 * Fits weights to examples by full-batch gradient descent on the log loss with an L2 penalty (the
 * bias unpenalised). Same examples, same weights: no randomness, so a refit can be compared line
 * for line with the weights in the source.
 */
export function fitLogistic(
  examples: readonly LogisticExample[],
  names: readonly string[],
  options: { l2?: number; steps?: number; rate?: number } = {},
): LogisticWeights {
  const { l2 = 0.01, steps = 4000, rate = 0.5 } = options;
  const rows = examples.map((example) => names.map((name) => example.features[name] ?? 0));
  const labels = examples.map((example) => (example.label ? 1 : 0));
  let bias = 0;
  const weights = names.map(() => 0);
  for (let step = 0; step < steps; step += 1) {
    let biasGradient = 0;
    const gradient = names.map(() => 0);
    rows.forEach((row, index) => {
      const z = row.reduce((sum, value, feature) => sum + value * weights[feature]!, bias);
      const error = 1 / (1 + Math.exp(-z)) - labels[index]!;
      biasGradient += error;
      row.forEach((value, feature) => (gradient[feature]! += error * value));
    });
    bias -= (rate * biasGradient) / rows.length;
    weights.forEach((weight, feature) => {
      weights[feature] = weight - rate * (gradient[feature]! / rows.length + l2 * weight);
    });
  }
  return { bias, weights: Object.fromEntries(names.map((name, index) => [name, weights[index]!])) };
}
