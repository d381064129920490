// The trajectory view model shared by the trajectory editor, the Runs tree and the CLI.
export * from './types';
export { loadTrajectory, isTaskLevel, DEFAULT_LIMITS, type LoadLimits, type TrajectoryFs } from './load';
export { detect } from './detect';
export { TrajectorySearch, fieldText, SEARCH_FIELDS, type SearchField, type SearchResult, type StepMatch } from './search';
export { trajectoryDocument, renderTrajectoryText, formatDuration, type TrajectoryDocument } from './document';
export { outlineOf, rowOf, ROW, type OutlineRow, type OutlineHeader } from './outline';
export { atPointer, pretty } from './json';
