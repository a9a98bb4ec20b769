// The webhook receiver of the topology test, run in its own host (network namespace): answers 200 to every POST and
// prints one JSON line per delivery — its webhook-id header, the envelope's type and booking — for the test to count.
import http from 'node:http';

const [host, port] = [process.argv[2] ?? '0.0.0.0', Number(process.argv[3] ?? 9000)];

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let envelope = {};
      try {
        envelope = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // Counted with an empty type: the test reports it.
      }
      const line = { webhook_id: req.headers['webhook-id'] ?? null, id: envelope.id ?? null, type: envelope.type ?? null, booking_id: envelope.data?.booking_id ?? null };
      process.stdout.write(`${JSON.stringify(line)}\n`);
      res.writeHead(200).end();
    });
  })
  .listen(port, host, () => process.stdout.write(`${JSON.stringify({ listening: `${host}:${port}` })}\n`));
