-- A tour's label (the dispatcher's name for it) and lock (plans never change a locked tour's stops): decision 1643.
ALTER TABLE "tours" ADD COLUMN "label" text;--> statement-breakpoint
ALTER TABLE "tours" ADD COLUMN "locked" boolean DEFAULT false NOT NULL;
