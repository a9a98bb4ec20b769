-- What a booking create reads and writes, as PL/pgSQL functions written by hand: a function keeps the plans of its
-- statements per server connection, which survives a transaction pooler that makes every statement from the service
-- unnamed, parsed and planned per run (decisions 1450, 1452, 1453). One function per owning module, each reading
-- only that module's table: the create's combined read calls the three modules' functions in one statement. Rows
-- come as JSON, whole rows (row_to_json, json_agg), so a column added later needs no change here. STABLE: they
-- read with the snapshot of the statement calling them, as the subqueries they replace did.

-- services: a service of the tenant (null when there is none), and its service area's id.
CREATE FUNCTION service_of(p_tenant_id uuid, p_id uuid) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT row_to_json(s) FROM services s WHERE s.tenant_id = p_tenant_id AND s.id = p_id);
END $$;
--> statement-breakpoint
CREATE FUNCTION service_area_id_of_service(p_tenant_id uuid, p_id uuid) RETURNS uuid LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT s.service_area_id FROM services s WHERE s.tenant_id = p_tenant_id AND s.id = p_id);
END $$;
--> statement-breakpoint
-- places: the tenant's places among the ids, in no particular order (ids of no place of the tenant are left out).
CREATE FUNCTION places_of(p_tenant_id uuid, p_ids uuid[]) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT coalesce(json_agg(p), '[]'::json) FROM places p WHERE p.tenant_id = p_tenant_id AND p.id = ANY(p_ids));
END $$;
--> statement-breakpoint
-- identity: a service area's auto-dispatch setting (decision 1350), null without the area.
CREATE FUNCTION auto_dispatch_setting_of(p_tenant_id uuid, p_service_area_id uuid) RETURNS json LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT json_build_object('enabled', a.auto_dispatch_enabled, 'budget_ms', a.auto_dispatch_budget_ms)
            FROM service_areas a WHERE a.tenant_id = p_tenant_id AND a.id = p_service_area_id);
END $$;
--> statement-breakpoint
-- dispatch: a new booking's write (repository insertNewBooking) also writes the booking's tracking link when the
-- create renders one (decision 1453), so the first render needs no statement of its own. An eighth argument beside
-- migration 0012's seven-argument function, which stays for processes of the previous version during a rolling
-- upgrade; the arguments are each table's rows as JSON, complete (db/json-insert.ts), in this order.
CREATE FUNCTION insert_new_booking(p_bookings json, p_stops json, p_packages json, p_history json, p_visibility json, p_events json, p_jobs json, p_links json)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO bookings SELECT * FROM json_populate_recordset(NULL::bookings, p_bookings);
  INSERT INTO stops SELECT * FROM json_populate_recordset(NULL::stops, p_stops);
  INSERT INTO packages SELECT * FROM json_populate_recordset(NULL::packages, p_packages);
  INSERT INTO package_history SELECT * FROM json_populate_recordset(NULL::package_history, p_history);
  INSERT INTO booking_visibility SELECT * FROM json_populate_recordset(NULL::booking_visibility, p_visibility);
  INSERT INTO events SELECT * FROM json_populate_recordset(NULL::events, p_events);
  INSERT INTO jobs SELECT * FROM json_populate_recordset(NULL::jobs, p_jobs);
  INSERT INTO booking_tracking_links SELECT * FROM json_populate_recordset(NULL::booking_tracking_links, p_links);
END $$;
--> statement-breakpoint
-- dispatch: the booking read (migration 0012) also brings the booking's tracking link row (null: none yet), so a
-- render that shows the link reads nothing more (decision 1453). A new column of the result: the function is made
-- again (a result type cannot be replaced); statements naming the first four columns read on unchanged.
DROP FUNCTION booking_with_children(uuid, uuid);
--> statement-breakpoint
CREATE FUNCTION booking_with_children(p_tenant_id uuid, p_id uuid)
  RETURNS TABLE (booking_json json, stops_json json, packages_json json, history_json json, tracking_link_json json)
  LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT row_to_json(b),
    (SELECT coalesce(json_agg(s ORDER BY s.position), '[]'::json) FROM stops s WHERE s.tenant_id = b.tenant_id AND s.booking_id = b.id),
    (SELECT coalesce(json_agg(p ORDER BY p.id), '[]'::json) FROM packages p WHERE p.tenant_id = b.tenant_id AND p.booking_id = b.id),
    (SELECT coalesce(json_agg(h ORDER BY h.id), '[]'::json) FROM package_history h
      WHERE h.tenant_id = b.tenant_id
        AND h.package_id IN (SELECT p.id FROM packages p WHERE p.tenant_id = b.tenant_id AND p.booking_id = b.id)),
    (SELECT row_to_json(l) FROM booking_tracking_links l WHERE l.tenant_id = b.tenant_id AND l.booking_id = b.id)
  FROM bookings b WHERE b.tenant_id = p_tenant_id AND b.id = p_id;
END $$;
