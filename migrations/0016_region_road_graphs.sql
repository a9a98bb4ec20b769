-- Road graphs (issue 38, decision 1520): one row per region, its drivable graph in the binary form of
-- src/modules/region/roads/encoding.ts; installation-wide like regions (no tenant_id). Written by the region import's
-- roads step in the import's transaction, deleted with the region it belongs to.
CREATE TABLE "region_road_graphs" (
	"region_id" uuid PRIMARY KEY NOT NULL,
	"nodes" integer NOT NULL,
	"edges" integer NOT NULL,
	"data" bytea NOT NULL
);
