// The run-summary writer's public API (docs/run-summary.md).
export {
  runSummaryPathFor, signaturesPathFor, relativePath, RUN_SUMMARY_SUFFIX, isRunSummaryPath, rolloutsPathForSummary, rolloutsStem, isRolloutsFile, notRolloutsWhy,
} from './paths';
export { buildRunSummary, type SummaryOptions } from './build';
export { UnreadableRunFile } from './rows';
export { writeRunSummary, cleanStaleTemps, type WriteResult, type WriteOptions } from './write';
export {
  outputSignatures, fileSignature, parseSignatures, readSignaturesSidecar, signaturesSidecar,
  type OutputSignatures, type FileSignature, type SignaturesSidecar,
} from './signatures';
export { serializeSummary, serializeSummaryBytes } from './serialize';
export { recordedSources, aggregationShards } from './health';
export { outputPaths, runFilePaths } from './files';
export type { RunSummaryDocument } from '../schemas/runSummary';
