// The proof-files/ sub-folder's door: what dispatch's other sub-folders and its top-level files use of it (decision
// 0230). A cross-sub-folder import names this file, never one behind it; src/architecture.test.ts holds it.
export { proofImageHeaders, proofView, readProofImage, recordProofFiles, withPreparedProof } from './operations.ts';
export { PROOF_IMAGE_RESPONSE, ProofImageParams } from './schemas.ts';
