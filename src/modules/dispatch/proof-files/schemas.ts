// Proof image routes' shapes: the owner's id and which image; the answer is the image itself.
import { Type } from '@sinclair/typebox';
import { Uuid } from '../../../http/schemas.ts';
import { PROOF_IMAGE_TYPES } from './image-type.ts';

export const ProofKind = Type.Union([Type.Literal('photo'), Type.Literal('signature')]);

export const ProofImageParams = Type.Object({ id: Uuid, kind: ProofKind });

/** The route schema's answer: the decrypted image in the type its bytes showed at upload. */
export const PROOF_IMAGE_RESPONSE = {
  produces: [...PROOF_IMAGE_TYPES],
  response: { 200: Type.Unsafe({ description: 'The image (JPEG, PNG or WebP), `Cache-Control: private, no-store`' }) },
};
