CREATE TABLE "region_tiles" (
	"region_id" uuid NOT NULL,
	"z" smallint NOT NULL,
	"x" integer NOT NULL,
	"y" integer NOT NULL,
	"data" bytea NOT NULL,
	CONSTRAINT "region_tiles_z_x_y_region_id_pk" PRIMARY KEY("z","x","y","region_id")
);
--> statement-breakpoint
CREATE INDEX "region_tiles_region_idx" ON "region_tiles" USING btree ("region_id");
--> statement-breakpoint
ALTER TABLE "region_tiles" ADD CONSTRAINT "region_tiles_region_id_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."regions"("id") ON DELETE cascade ON UPDATE no action;
