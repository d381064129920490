// Comparing runs task by task and two attempts step by step (docs/compare.md).
export * from './sides';
export * from './runs';
export * from './align';
export { commonSubsequence, type Matches } from './diff';
export * from './verifier';
export { renderCompareText, cellText, sideLetter, type CompareTextOptions } from './text';
