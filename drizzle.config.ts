// drizzle-kit: generates the checked-in SQL migrations from src/db/schema.ts (npm run db:generate).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './migrations',
});
