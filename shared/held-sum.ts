// Two counts (tokens, dollars) added, held at the largest number there is: damaged counts (1e308 each) otherwise add up to an Infinity that JSON turns into null and the contract refuses.

export function heldSum(a: number, b: number): number {
  const sum = a + b;
  return Number.isFinite(sum) ? sum : sum > 0 ? Number.MAX_VALUE : 0;
}
