// Sends one queued action with its Idempotency-Key over the session cookie; the answer is classified by outbox.ts.
import { apiLanguage, reportUnauthenticated } from '../../api/client.ts';
import { connection } from '../../api/connection.ts';
import { classify, type SendResult, type QueuedAction } from './outbox.ts';

export async function sendAction(action: QueuedAction): Promise<SendResult> {
  let response: Response;
  try {
    response = await fetch(action.path, {
      method: action.method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { 'content-type': 'application/json', 'idempotency-key': action.key, 'accept-language': apiLanguage() },
      body: JSON.stringify(action.body ?? {}),
    });
  } catch {
    connection.reportLost();
    return { kind: 'retry' };
  }
  connection.reportAnswered();
  const text = await response.text().catch(() => '');
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // a proxy's HTML page: classified by its status alone
  }
  if (response.status === 401) reportUnauthenticated();
  return classify(response.status, body, response.headers.get('retry-after'));
}
