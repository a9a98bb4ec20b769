#!/usr/bin/env bash
# Backup and point-in-time restore drill on a running reference topology (deploy/topology.sh up or database):
# a base backup with pg_basebackup, writes before and after a chosen moment, the WAL archive Patroni's members fill
# (archive_command in deploy/patroni/*.yml), and a restore to that moment into a scratch server in the hooks host.
# Prints how long each step took (docs/operations.md, "Backup and point-in-time restore").
set -euo pipefail
BASE="${TOURBOOK_HA_DIR:-/tmp/tourbook-ha}"
PRIMARY=(-h 10.231.0.20 -p 5000)
export PGPASSWORD=ha-tourbook-secret
app() { psql "${PRIMARY[@]}" -U tourbook -d tourbook -v ON_ERROR_STOP=1 -Atqc "$1"; }
seconds() { python3 -c "import time; print(f'{time.time() - $1:.1f}')"; }
now() { python3 -c 'import time; print(time.time())'; }

BACKUP="$BASE/backup/base"
RESTORE="$BASE/restore"
rm -rf "$BASE/backup" "$RESTORE"
mkdir -p "$BASE/backup"
chown postgres:postgres "$BASE/backup"

app "DROP TABLE IF EXISTS drill"
app "CREATE TABLE drill (id int PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())"
app "INSERT INTO drill (id) VALUES (1)"

t=$(now)
runuser -u postgres -- env PGPASSWORD=ha-replicator-secret pg_basebackup "${PRIMARY[@]}" -U replicator -D "$BACKUP" -X stream -c fast
echo "base backup: $(seconds "$t") s, $(du -sh "$BACKUP" | cut -f1)"

app "INSERT INTO drill (id) VALUES (2)"
sleep 1
TARGET=$(app "SELECT now()")
sleep 1
app "INSERT INTO drill (id) VALUES (3)"
# Close the current WAL segment so that the archive holds the target (archive_timeout would, within a minute).
PGPASSWORD=ha-superuser-secret psql "${PRIMARY[@]}" -U postgres -d postgres -Atqc "SELECT pg_switch_wal()" >/dev/null
sleep 2

t=$(now)
cp -a "$BACKUP" "$RESTORE"
cat >> "$RESTORE/postgresql.auto.conf" <<EOF
restore_command = 'cp $BASE/archive/%f %p'
recovery_target_time = '$TARGET'
recovery_target_action = 'promote'
EOF
touch "$RESTORE/recovery.signal"
rm -f "$RESTORE/postmaster.pid" "$RESTORE/standby.signal"
chown -R postgres:postgres "$RESTORE"
chmod 700 "$RESTORE"
# The scratch server listens only inside the hooks host, with Patroni's settings from the backup's postgresql.conf
# overridden: no archiving, no replication, its own socket folder.
ip netns exec tbha-hooks runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$RESTORE" -w -t 120 -l "$BASE/backup/restore.log" \
  -o "-c listen_addresses=127.0.0.1 -c port=5432 -c unix_socket_directories=$BASE/backup -c archive_mode=off -c hba_file=$RESTORE/pg_hba.conf -c ident_file=$RESTORE/pg_ident.conf -c config_file=$RESTORE/postgresql.conf -c data_directory=$RESTORE" start
for _ in $(seq 1 120); do
  [ "$(ip netns exec tbha-hooks runuser -u postgres -- psql -h "$BASE/backup" -d tourbook -Atqc 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] && break
  sleep 0.5
done
ROWS=$(ip netns exec tbha-hooks runuser -u postgres -- psql -h "$BASE/backup" -d tourbook -Atqc "SELECT string_agg(id::text, ',' ORDER BY id) FROM drill")
echo "restore to $TARGET: $(seconds "$t") s; rows present: $ROWS (expected 1,2)"
ip netns exec tbha-hooks runuser -u postgres -- /usr/lib/postgresql/15/bin/pg_ctl -D "$RESTORE" -m fast stop >/dev/null
app "DROP TABLE drill"
[ "$ROWS" = "1,2" ] || { echo "restore drill FAILED: expected rows 1,2" >&2; exit 1; }
echo "restore drill passed"
