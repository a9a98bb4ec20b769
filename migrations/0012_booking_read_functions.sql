-- The booking read (GET /api/hailing/bookings/{id}) and its tip outcome as PL/pgSQL functions, written by hand: a
-- function keeps the plans of its statements per server connection, which survives a transaction pooler that makes
-- every statement from the service unnamed, parsed and planned per run (decisions 1450, 1452). The booking and its
-- children come as JSON, whole rows, so a column added later needs no change here. STABLE: they read with the
-- snapshot of the statement calling them, as subqueries would.
CREATE FUNCTION booking_with_children(p_tenant_id uuid, p_id uuid)
  RETURNS TABLE (booking_json json, stops_json json, packages_json json, history_json json)
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT row_to_json(b),
    (SELECT coalesce(json_agg(s ORDER BY s.position), '[]'::json) FROM stops s WHERE s.tenant_id = b.tenant_id AND s.booking_id = b.id),
    (SELECT coalesce(json_agg(p ORDER BY p.id), '[]'::json) FROM packages p WHERE p.tenant_id = b.tenant_id AND p.booking_id = b.id),
    (SELECT coalesce(json_agg(h ORDER BY h.id), '[]'::json) FROM package_history h
      WHERE h.tenant_id = b.tenant_id
        AND h.package_id IN (SELECT p.id FROM packages p WHERE p.tenant_id = b.tenant_id AND p.booking_id = b.id))
  FROM bookings b WHERE b.tenant_id = p_tenant_id AND b.id = p_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION tip_outcome_of(p_tenant_id uuid, p_booking_id uuid) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT row_to_json(t) FROM tip_outcomes t WHERE t.tenant_id = p_tenant_id AND t.booking_id = p_booking_id);
END $$;
--> statement-breakpoint
-- A new booking's write (repository insertNewBooking), every table's rows as one JSON argument in this order, for
-- the same reason. Each table's rows come complete (every column, db/json-insert.ts), so SELECT * fills the table's
-- columns by name; the inserts run in the order their foreign keys need.
CREATE FUNCTION insert_new_booking(p_bookings json, p_stops json, p_packages json, p_history json, p_visibility json, p_events json, p_jobs json)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bookings SELECT * FROM json_populate_recordset(NULL::bookings, p_bookings);
  INSERT INTO stops SELECT * FROM json_populate_recordset(NULL::stops, p_stops);
  INSERT INTO packages SELECT * FROM json_populate_recordset(NULL::packages, p_packages);
  INSERT INTO package_history SELECT * FROM json_populate_recordset(NULL::package_history, p_history);
  INSERT INTO booking_visibility SELECT * FROM json_populate_recordset(NULL::booking_visibility, p_visibility);
  INSERT INTO events SELECT * FROM json_populate_recordset(NULL::events, p_events);
  INSERT INTO jobs SELECT * FROM json_populate_recordset(NULL::jobs, p_jobs);
END $$;
