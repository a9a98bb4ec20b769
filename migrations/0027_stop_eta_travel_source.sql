-- Which travel source computed each stored ETA (contract §15, issue 38; decision 1702): road_network, osrm, valhalla or
-- straight_line. ETAs stored before this migration have none (NULL) until the tour's next recomputation.
ALTER TABLE "stop_etas" ADD COLUMN "travel_source" text;
