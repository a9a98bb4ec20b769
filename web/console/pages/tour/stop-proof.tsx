// A completed stop's proof of delivery: who received it, the note, the photo as a thumbnail that opens the full image,
// the signature, or when retention deleted the images (decision 1250). Images are same-origin API URLs.
import { useFormat, useT } from '../../../i18n/index.tsx';
import { messages } from './messages.ts';
import type { Stop } from './queries.ts';

export function StopProof({ proof, timeZone }: { proof: NonNullable<Stop['proof']>; timeZone?: string | undefined }) {
  const t = useT(messages);
  const format = useFormat();
  return (
    <div className="stop-proof">
      <strong>{t('proof')}</strong>
      {proof.recipient_name ? <div>{t('proof_recipient', { name: proof.recipient_name })}</div> : null}
      {proof.note ? <div>{t('proof_note', { note: proof.note })}</div> : null}
      {proof.photo_url || proof.signature_url ? (
        <div className="row">
          {proof.photo_url ? (
            <a href={proof.photo_url} target="_blank" rel="noopener" title={t('proof_photo_open')}>
              <img className="proof-thumb" src={proof.photo_url} alt={t('proof_photo')} loading="lazy" />
            </a>
          ) : null}
          {proof.signature_url ? <img className="proof-signature" src={proof.signature_url} alt={t('proof_signature')} loading="lazy" /> : null}
        </div>
      ) : null}
      {proof.deleted_at ? <div className="muted">{t('proof_deleted', { date: format.date(proof.deleted_at, timeZone) })}</div> : null}
    </div>
  );
}
