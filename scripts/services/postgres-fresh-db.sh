#!/usr/bin/env bash
# Drops and creates the database NAME on the server of URL (a database URL
# of postgres-local.sh), for a test that needs an empty database.
#
#   scripts/services/postgres-fresh-db.sh URL NAME
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 URL NAME" >&2; exit 1; }
url=$1
name=$2
[[ "$name" =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "$0: bad database name '$name'" >&2; exit 1; }
psql "$url" -q -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning" \
  -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" > /dev/null
