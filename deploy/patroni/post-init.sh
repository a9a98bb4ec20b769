#!/bin/sh
# Patroni's post_init: the application's role and database, created once on the new cluster's first primary.
# Patroni passes a connection string of its superuser as the first argument.
set -e
psql -v ON_ERROR_STOP=1 "$1" <<'SQL'
CREATE ROLE tourbook LOGIN PASSWORD 'ha-tourbook-secret';
CREATE DATABASE tourbook OWNER tourbook;
SQL
