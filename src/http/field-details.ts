// German for every field-level detail the service writes in English (decision 0156): schema validation (Ajv's messages
// and ours), body checks, and the domain rules' `errors[]`. A table, read at start-up with the message catalogs
// (src/messages.ts, decision 0210): nothing is registered by importing this file. field-details.test.ts fails on a
// detail without an entry.
import type { FieldDetails } from './i18n.ts';

export const fieldDetails: FieldDetails = {
  // Schema validation (validation.ts): our texts, then Ajv's own messages as it words them.
  'is required': { de: 'ist erforderlich' },
  'no stop of these bookings waits for dispatch or is scheduled': { de: 'kein Stopp dieser Buchungen wartet auf die Disposition oder ist eingeplant' },
  'must not be blank (null removes the label)': { de: 'darf nicht leer sein (null entfernt die Bezeichnung)' },
  'is required (or send {alternatives} instead)': { de: 'ist erforderlich (oder senden Sie stattdessen {alternatives})' },
  'is not a known field': { de: 'ist kein bekanntes Feld' },
  'must be one of: {values}': { de: 'muss einer dieser Werte sein: {values}' },
  'is too large when serialized as JSON': { de: 'ist als JSON serialisiert zu groß' },
  'is invalid': { de: 'ist ungültig' },
  'must be <= {limit}': { de: 'muss ≤ {limit} sein' },
  'must be >= {limit}': { de: 'muss ≥ {limit} sein' },
  'must be < {limit}': { de: 'muss < {limit} sein' },
  'must be > {limit}': { de: 'muss > {limit} sein' },
  'must NOT have more than {limit} characters': { de: 'darf höchstens {limit} Zeichen haben' },
  'must NOT have fewer than {limit} characters': { de: 'muss mindestens {limit} Zeichen haben' },
  'must NOT have more than {limit} items': { de: 'darf höchstens {limit} Einträge haben' },
  'must NOT have fewer than {limit} items': { de: 'muss mindestens {limit} Einträge haben' },
  'must NOT have more than {limit} properties': { de: 'darf höchstens {limit} Felder haben' },
  'must NOT have fewer than {limit} properties': { de: 'muss mindestens {limit} Felder haben' },
  'must NOT have duplicate items (items ## {j} and {i} are identical)': { de: 'darf keine doppelten Einträge haben (Einträge {j} und {i} sind gleich)' },
  'must match format "{format}"': { de: 'muss dem Format „{format}“ entsprechen' },
  'must match pattern "{pattern}"': { de: 'muss dem Muster „{pattern}“ entsprechen' },
  'must be multiple of {factor}': { de: 'muss ein Vielfaches von {factor} sein' },
  'must have property {names} when property {name} is present': { de: 'braucht das Feld {names}, wenn das Feld {name} vorhanden ist' },
  'must have properties {names} when property {name} is present': { de: 'braucht die Felder {names}, wenn das Feld {name} vorhanden ist' },
  'must NOT be valid': { de: 'darf diesem Schema nicht entsprechen' },
  'boolean schema is false': { de: 'ist hier nicht erlaubt' },

  // Bodies (json-body.ts) and references (errors.ts).
  'contains a NUL character (U+0000)': { de: 'enthält ein NUL-Zeichen (U+0000)' },
  'contains an unpaired UTF-16 surrogate': { de: 'enthält ein ungepaartes UTF-16-Surrogat' },
  'is not a finite number': { de: 'ist keine endliche Zahl' },
  'is not a known field: this request takes no body': { de: 'ist kein bekanntes Feld: diese Anfrage hat keinen Anfragetext' },
  'this request takes no body': { de: 'diese Anfrage hat keinen Anfragetext' },
  'No {resource} with this id is visible to you.': { de: 'Kein Objekt ({resource}) mit dieser ID ist für Sie sichtbar.' },
  'Unknown query parameter {name}.': { de: 'Unbekannter Query-Parameter {name}.' },
  'Query parameter {name} {detail}.': { de: 'Query-Parameter {name}: {detail}.' },

  // Recipient templates (modules/tracking/recipient-mail.ts, decision 1109).
  'Unknown placeholder {placeholder}: this moment offers {offered}.': { de: 'Unbekannter Platzhalter {placeholder}: dieser Moment bietet {offered}.' },
  'A brace pair is left open; placeholders are written in double braces.': { de: 'Ein Klammerpaar ist offen; Platzhalter stehen in doppelten geschweiften Klammern.' },
  'The subject is one line.': { de: 'Der Betreff ist eine Zeile.' },
  'The body must carry the tracking link (the tracking_url placeholder).': { de: 'Der Text muss den Tracking-Link enthalten (den Platzhalter tracking_url).' },
  'The cursor is not one this API issued.': { de: 'Dieser Cursor stammt nicht von dieser API.' },
  'The Idempotency-Key header must be 1–{max} characters.': { de: 'Der Header Idempotency-Key muss 1–{max} Zeichen lang sein.' },
  'filters[on_active_hailing_booking] contradicts filters[on_active_tour].': {
    de: 'filters[on_active_hailing_booking] widerspricht filters[on_active_tour].',
  },

  // Identity.
  'is not an ISO-4217 currency code': { de: 'ist kein ISO-4217-Währungscode' },
  'is not an IANA time zone': { de: 'ist keine IANA-Zeitzone' },
  'is already used by another user of this tenant': { de: 'wird bereits von einem anderen Benutzer dieses Mandanten verwendet' },
  'is required for this e-mail': { de: 'ist für diese E-Mail-Adresse erforderlich' },
  'a position is [longitude (-180…180), latitude (-90…90)]': { de: 'eine Position ist [Längengrad (-180…180), Breitengrad (-90…90)]' },
  'a linear ring ends with its first position': { de: 'ein Ring endet mit seiner ersten Position' },
  'a manager belongs to at least one organization': { de: 'ein Manager gehört zu mindestens einer Organisation' },
  'a driver belongs to exactly one organization': { de: 'ein Fahrer gehört zu genau einer Organisation' },
  'a user with role {role} belongs to no organization': { de: 'ein Benutzer mit der Rolle {role} gehört zu keiner Organisation' },

  // Tour services.
  "must be one of the service's stop_types or null": { de: 'muss einer der stop_types des Service oder null sein' },

  // Dispatch: bookings, stops, tours, packages.
  'no stop of these bookings waits for dispatch': { de: 'kein Stopp dieser Buchungen wartet auf die Disposition' },
  "is past the plan's tours (numbered from 0)": { de: 'liegt hinter den Touren der Planung (gezählt ab 0)' },
  'each proposed tour at most once': { de: 'jede vorgeschlagene Tour höchstens einmal' },
  "a driver's tour under way keeps its driver": { de: 'eine Tour unterwegs behält ihren Fahrer' },
  'is not a Kannel DLR type (1, 2, 4, 8 or 16)': { de: 'ist kein Kannel-DLR-Typ (1, 2, 4, 8 oder 16)' },
  'is not a Twilio message status ({list})': { de: 'ist kein Twilio-Nachrichtenstatus ({list})' },
  'is not an SMPP receipt state ({list})': { de: 'ist kein SMPP-Zustellstatus ({list})' },
  // The sender identity (decision 1784).
  'The mail server sends only for {domains}: use an address there.': { de: 'Der Mailserver sendet nur für {domains}: verwenden Sie eine Adresse dort.' },
  // The recipient's delivery instructions (tracking/instructions.ts, decision 1788).
  'Name the neighbour who may take the parcel.': { de: 'Nennen Sie den Nachbarn, der das Paket annehmen darf.' },
  'A neighbour is named only with kind neighbour.': { de: 'Ein Nachbar wird nur mit der Art „neighbour“ genannt.' },
  'The logo {detail}.': { de: 'Das Logo {detail}.' },
  'is larger than {size}': { de: 'ist größer als {size}' },
  'names no stop': { de: 'bezeichnet keinen Stopp' },
  'must come after the pickup stop': { de: 'muss nach dem Abholstopp kommen' },
  'is already used by an open package': { de: 'wird bereits von einem offenen Paket verwendet' },
  'is larger than 5 MiB': { de: 'ist größer als 5 MiB' },
  'is required by the service': { de: 'wird vom Service verlangt' },
  'use the force_delivery route': { de: 'verwenden Sie die Route force_delivery' },
  'must be announce or cancel': { de: 'muss announce oder cancel sein' },
  'is not handled at this stop': { de: 'wird an diesem Stopp nicht bearbeitet' },
  'is not its pickup stop': { de: 'ist nicht sein Abholstopp' },
  'is not its drop-off stop': { de: 'ist nicht sein Zustellstopp' },
  'is not a driver of a managing organization': { de: 'ist kein Fahrer einer verwaltenden Organisation' },
  'a {status} stop keeps its group': { de: 'ein Stopp im Status {status} behält seine Gruppe' },
  'is not a stop type of the service ({types})': { de: 'ist kein Stopptyp des Service ({types})' },
  'is before starts_at': { de: 'liegt vor starts_at' },
  'needs place_id, or location and address': { de: 'braucht place_id oder location und address' },
  'is required here (only a new booking locates a stop from its address)': { de: 'ist hier erforderlich (nur eine neue Buchung findet einen Stopp über seine Adresse)' },
  'is the external id of another booking that is not cancelled': { de: 'ist die externe ID einer anderen Buchung, die nicht storniert ist' },
  // Address-only stops (dispatch/bookings/locate-stops.ts, decision 1562).
  'has no street to find': { de: 'hat keine Straße, die sich finden ließe' },
  'was not found': { de: 'wurde nicht gefunden' },
  'was not found; the closest match is {label}': { de: 'wurde nicht gefunden; am nächsten kommt {label}' },
  // Contacts (shared/contact.ts, decision 1561).
  'is not an ISO 3166-1 alpha-2 country code': { de: 'ist kein Ländercode nach ISO 3166-1 alpha-2' },
  'must differ from the start time: quiet hours of no length are none': { de: 'muss sich von der Anfangszeit unterscheiden: Ruhezeiten ohne Dauer sind keine' },
  'is not an e-mail address': { de: 'ist keine E-Mail-Adresse' },
  'is not a valid phone number': { de: 'ist keine gültige Telefonnummer' },
  'has no country code (+…) and the service area has no country_code to read it in': { de: 'hat keine Ländervorwahl (+…), und das Liefergebiet hat keinen country_code, um sie zu lesen' },
  'starts with the reserved prefix "A-"': { de: 'beginnt mit dem reservierten Präfix „A-“' },
  'is longer than {max} characters': { de: 'ist länger als {max} Zeichen' },
  'stop {id} comes before its pickup': { de: 'Stopp {id} liegt vor seiner Abholung' },
  'is failed': { de: 'ist fehlgeschlagen' },
  'is not waiting for dispatch': { de: 'wartet nicht auf die Disposition' },

  // Compensation.
  'must match [a-z0-9_-]{1,64}': { de: 'muss [a-z0-9_-]{1,64} entsprechen' },

  // Webhooks.
  'No service area with this id is visible to you.': { de: 'Kein Servicegebiet mit dieser ID ist für Sie sichtbar.' },
  'No customer with this id is visible to you.': { de: 'Kein Kunde mit dieser ID ist für Sie sichtbar.' },

  // Reports.
  'is not valid base64': { de: 'ist kein gültiges Base64' },
  'is not a known part; send `file`': { de: 'ist kein bekannter Teil; senden Sie `file`' },
  'a multipart create needs its `file` part (create without a file with JSON)': {
    de: 'ein Multipart-Anlegen braucht den Teil `file` (ohne Datei mit JSON anlegen)',
  },
  'send the `report` part (JSON) before the `file` part': { de: 'senden Sie den Teil `report` (JSON) vor dem Teil `file`' },
  'send one `file` part': { de: 'senden Sie genau einen Teil `file`' },
  'send one `report` part (JSON), then one `file` part': { de: 'senden Sie einen Teil `report` (JSON), dann einen Teil `file`' },
  'send one `{part}` part': { de: 'senden Sie genau einen Teil `{part}`' },
  'nothing may follow the `file` part': { de: 'nach dem Teil `file` darf nichts folgen' },
  'is not a known part; {order}': { de: 'ist kein bekannter Teil; {order}' },
  'A manager may not share a report with every admin.': { de: 'Ein Manager darf einen Bericht nicht mit allen Admins teilen.' },
  "A manager may share only with its own organizations' managers.": { de: 'Ein Manager darf nur mit den Managern seiner eigenen Organisationen teilen.' },
  'No organization with this id is visible to you.': { de: 'Keine Organisation mit dieser ID ist für Sie sichtbar.' },
  'No user with this id is visible to you.': { de: 'Kein Benutzer mit dieser ID ist für Sie sichtbar.' },
  'must lie in the future': { de: 'muss in der Zukunft liegen' },
  'must lie within 366 days': { de: 'muss innerhalb von 366 Tagen liegen' },

  // Live tracking.
  'recorded_at is more than 5 minutes ahead of the server clock.': { de: 'recorded_at liegt mehr als 5 Minuten vor der Serveruhr.' },

  // Failed stops.
  'No stop failure reason {key}; see GET /api/reasons/stop_failure.': { de: 'Kein Fehlergrund {key} für Stopps; siehe GET /api/reasons/stop_failure.' },
  'A reason with the key {key} exists already.': { de: 'Ein Grund mit dem Schlüssel {key} existiert bereits.' },

  // Reading your own writes (read replicas).
  // Delivery analytics' period (src/modules/analytics, decision 1741).
  'to must be after from.': { de: 'to muss nach from liegen.' },
  'A period covers at most {days} days.': { de: 'Ein Zeitraum umfasst höchstens {days} Tage.' },
  'Tourbook-Consistency must be a WAL position this API returned, e.g. 0/16B3748.': {
    de: 'Tourbook-Consistency muss eine WAL-Position sein, die diese API geliefert hat, z. B. 0/16B3748.',
  },

  // Planning and shifts.
  'The plan could not be made.': { de: 'Der Plan konnte nicht erstellt werden.' },
  'needs drivers: without them only fewest_tours applies': { de: 'braucht Fahrer: ohne sie gilt nur fewest_tours' },
  'needs drivers: only_new adds to the tours of drivers or shifts': { de: 'braucht Fahrer: only_new ergänzt die Touren von Fahrern oder Schichten' },
  'give {kind}_place_id or {kind2}_location, not both': { de: 'entweder {kind}_place_id oder {kind2}_location angeben, nicht beides' },
  'overlaps shift {id} ({from} to {to})': { de: 'überschneidet sich mit Schicht {id} ({from} bis {to})' },
  'give start_place_id or start_location': { de: 'start_place_id oder start_location angeben' },
  'give drivers or shift_ids, not both': { de: 'entweder drivers oder shift_ids angeben, nicht beides' },

  // Proof of delivery.
  'is not base64': { de: 'ist kein Base64' },
  'is not a JPEG, PNG or WebP image': { de: 'ist kein JPEG-, PNG- oder WebP-Bild' },

  // Ajv's `must be {type}` for the JSON types, then catch-alls, last so every more specific text above wins (texts with
  // a `{value}` are tried in the order of this table).
  'must be string': { de: 'muss eine Zeichenkette sein' },
  'must be integer': { de: 'muss eine ganze Zahl sein' },
  'must be number': { de: 'muss eine Zahl sein' },
  'must be boolean': { de: 'muss true oder false sein' },
  'must be object': { de: 'muss ein Objekt sein' },
  'must be array': { de: 'muss ein Array sein' },
  'must be null': { de: 'muss null sein' },
  'must be {expected}': { de: 'muss {expected} sein' },
};
