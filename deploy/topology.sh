#!/usr/bin/env bash
# The reference topology on one machine, without systemd: network namespaces stand in for the hosts
# (docs/operations.md, "The reference topology"). Needs root, iproute2 and Debian's postgresql-15, patroni,
# etcd-server, haproxy and pgbouncer.
#
#   deploy/topology.sh up       create the hosts and start etcd, Patroni (PostgreSQL), HAProxy, PgBouncer, two API
#                               hosts and a worker host; prints the addresses when the API answers through HAProxy
#   deploy/topology.sh database the database tier alone (etcd, Patroni, HAProxy, PgBouncer), e.g. for benchmarks
#   deploy/topology.sh tourbook then the API hosts and the worker host on it
#   deploy/topology.sh down     stop everything it started and remove the namespaces, the bridge and its folder
#   deploy/topology.sh status   patronictl list and HAProxy's view of its servers
#
# Environment: TOURBOOK_HA_DIR (default /tmp/tourbook-ha: configs, data, logs), BOOTSTRAP_ADMIN_TOKEN (the bootstrap
# tenant's admin token; random otherwise), TOURBOOK_HA_ENV (extra KEY=VALUE lines for every Tourbook process, e.g.
# WEBHOOKS_ALLOW_PRIVATE_TARGETS=true for a receiver on the same network).
# The configs in deploy/ name /var/lib/tourbook-ha; `up` copies them into TOURBOOK_HA_DIR with that path replaced.
set -euo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
BASE="$(realpath -m "${TOURBOOK_HA_DIR:-/tmp/tourbook-ha}")"
# The services run as postgres and inherit the working directory, which Patroni's worker processes enter again: a
# clone in a directory only root may enter (mktemp -d) would stop them. Every path below is absolute.
cd /
PREFIX=tbha
BRIDGE=tbha-br
SUBNET=10.231.0
# host name → last octet of its address
declare -A HOSTS=([db1]=11 [db2]=12 [db3]=13 [proxy]=20 [pooler]=21 [api1]=31 [api2]=32 [worker]=41 [hooks]=50)
ORDER=(db1 db2 db3 proxy pooler api1 api2 worker hooks)

in_host() { local host=$1; shift; ip netns exec "$PREFIX-$host" "$@"; }
as_postgres() { runuser -u postgres -- "$@"; }
log() { echo "topology: $*" >&2; }

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local seconds=$1 what=$2; shift 2
  for _ in $(seq 1 $((seconds * 2))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.5; done
  log "gave up waiting for $what after ${seconds}s"; return 1
}

down() {
  # Every process in a namespace of ours, whatever started it (also those of a crashed earlier run).
  for ns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX-" || true); do
    pids=$(ip netns pids "$ns" 2>/dev/null || true)
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
  done
  sleep 0.3
  for ns in $(ip netns list | awk '{print $1}' | grep "^$PREFIX-" || true); do ip netns del "$ns" 2>/dev/null || true; done
  ip link del "$BRIDGE" 2>/dev/null || true
  for host in "${ORDER[@]}"; do ip link del "$PREFIX-$host" 2>/dev/null || true; done
  rm -rf "$BASE"
}

network() {
  ip link add "$BRIDGE" type bridge
  ip addr add "$SUBNET.1/24" dev "$BRIDGE"
  ip link set "$BRIDGE" up
  for host in "${ORDER[@]}"; do
    ns="$PREFIX-$host"
    ip netns add "$ns"
    ip link add "$ns" type veth peer name eth0 netns "$ns"
    ip link set "$ns" master "$BRIDGE" up
    in_host "$host" ip addr add "$SUBNET.${HOSTS[$host]}/24" dev eth0
    in_host "$host" ip link set eth0 up
    in_host "$host" ip link set lo up
  done
}

# Starts COMMAND in HOST's namespace, detached, output to $BASE/logs/NAME.log.
start() {
  local host=$1 name=$2; shift 2
  ip netns exec "$PREFIX-$host" setsid "$@" >"$BASE/logs/$name.log" 2>&1 < /dev/null &
}

configs() {
  mkdir -p "$BASE"/{logs,archive,shared,haproxy,pgbouncer}
  cp -r "$REPO/deploy" "$BASE/deploy"
  grep -rl /var/lib/tourbook-ha "$BASE/deploy" | xargs sed -i "s#/var/lib/tourbook-ha#$BASE#g"
  for db in db1 db2 db3; do mkdir -p "$BASE/$db/log"; done
  chmod 700 "$BASE/deploy/pgbouncer"
  chown -R postgres:postgres "$BASE"/{db1,db2,db3,archive,pgbouncer,deploy/pgbouncer}
  chmod 755 "$BASE"
}

database() {
  for db in db1 db2 db3; do start "$db" "etcd-$db" etcd --config-file "$BASE/deploy/etcd/$db.yml"; done
  wait_for 60 "etcd" curl -sf "http://$SUBNET.11:2379/health"
  for db in db1 db2 db3; do start "$db" "patroni-$db" runuser -u postgres -- patroni "$BASE/deploy/patroni/$db.yml"; done
  start proxy haproxy haproxy -W -db -f "$BASE/deploy/haproxy/haproxy.cfg"
  # A leader, and every member streaming with one of them synchronous.
  wait_for 180 "a Patroni leader with a synchronous standby" cluster_ready
  start pooler pgbouncer runuser -u postgres -- pgbouncer "$BASE/deploy/pgbouncer/pgbouncer.ini"
  wait_for 30 "PgBouncer" pg_isready -h "$SUBNET.21" -p 6432 -d tourbook
}

cluster_ready() {
  curl -sf "http://$SUBNET.11:8008/cluster" | node -e '
    const members = JSON.parse(require("fs").readFileSync(0, "utf8")).members;
    const ok = members.length === 3 && members.some((m) => m.role === "leader" && m.state === "running")
      && members.some((m) => m.role === "sync_standby" && (m.state === "running" || m.state === "streaming"));
    process.exit(ok ? 0 : 1);'
}

tourbook_env() { # tourbook_env FILE HOST_ADDRESS → the exported environment of one Tourbook process
  set -a
  # shellcheck disable=SC1090
  . "$BASE/deploy/tourbook/$1"
  [ -n "${TOURBOOK_HA_ENV:-}" ] && eval "$TOURBOOK_HA_ENV"
  set +a
  export HOST="$2" REPORTS_MASTER_KEY="$(cat "$BASE/master.key")" BOOTSTRAP_ADMIN_TOKEN="$(cat "$BASE/admin.token")"
}

service() {
  node "$REPO/bin/tourbook.js" keys generate | tail -n 1 | tr -d '\n' > "$BASE/master.key"
  printf '%s' "${BOOTSTRAP_ADMIN_TOKEN:-tb_ha_$(head -c 18 /dev/urandom | base64 | tr '+/' 'ab')}" > "$BASE/admin.token"
  # Migrations once per release, on a direct connection (one transaction; decision 1450).
  (tourbook_env api.env "$SUBNET.31"; DATABASE_URL="$DATABASE_DIRECT_URL" node "$REPO/bin/tourbook.js" migrate)
  # The first API host alone first: it creates the bootstrap tenant; then the others.
  (tourbook_env api.env "$SUBNET.31"; start api1 api1 node "$REPO/bin/tourbook.js" serve)
  wait_for 120 "api1" curl -sf "http://$SUBNET.31:3000/readyz"
  (tourbook_env api.env "$SUBNET.32"; start api2 api2 node "$REPO/bin/tourbook.js" serve)
  (tourbook_env worker.env "$SUBNET.41"; start worker worker node "$REPO/bin/tourbook.js" serve)
  wait_for 120 "api2" curl -sf "http://$SUBNET.32:3000/readyz"
  wait_for 60 "the API through HAProxy" curl -sf "http://$SUBNET.20:8080/readyz"
}

status() {
  in_host db1 patronictl -c "$BASE/deploy/patroni/db1.yml" list || true
  echo "show servers state" | in_host proxy socat - "UNIX-CONNECT:$BASE/haproxy/admin.sock" 2>/dev/null || true
}

case "${1:-}" in
  up)
    [ "$(id -u)" = 0 ] || { log "needs root (network namespaces)"; exit 1; }
    down
    network
    configs
    database
    service
    log "up: API http://$SUBNET.20:8080 (HAProxy), PostgreSQL primary $SUBNET.20:5000, PgBouncer $SUBNET.21:6432, logs $BASE/logs"
    ;;
  database)
    [ "$(id -u)" = 0 ] || { log "needs root (network namespaces)"; exit 1; }
    down
    network
    configs
    database
    log "database up: PostgreSQL primary $SUBNET.20:5000, PgBouncer $SUBNET.21:6432, logs $BASE/logs"
    ;;
  tourbook) service ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 up|database|tourbook|down|status" >&2; exit 2 ;;
esac
