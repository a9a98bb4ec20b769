// Proof images (decision 1250): the shared raster check (src/shared/image-type.ts) with the proof's own limit.
import { decodeImage, IMAGE_TYPES, type DecodedImage, type ImageType } from '../../../shared/image-type.ts';

export { imageTypeOf } from '../../../shared/image-type.ts';
export const PROOF_IMAGE_TYPES = IMAGE_TYPES;
export type ProofImageType = ImageType;

/** docs/api-guide.md "Proof of delivery": a photo (and a signature) is at most 5 MiB once decoded. */
export const MAX_PROOF_IMAGE_BYTES = 5 * 1024 * 1024;

/** A base64 proof image decoded and checked: strict base64, at most 5 MiB decoded, a JPEG, PNG or WebP by its bytes. */
export const decodeProofImage = (base64: string): DecodedImage => decodeImage(base64, MAX_PROOF_IMAGE_BYTES, '5 MiB');
