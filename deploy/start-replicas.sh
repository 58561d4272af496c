#!/bin/sh
# Starts N replicas of `switchboard serve` on one PostgreSQL database (ports BASE_PORT, BASE_PORT+1, …).
#
#   SWITCHBOARD_DB=postgres://switchboard@db.internal/switchboard \
#   SWITCHBOARD_SECRET_KEY="$(cat /etc/switchboard/secret.key)" \
#   SWITCHBOARD_TOKEN="$(cat /etc/switchboard/admin.token)" \
#   deploy/start-replicas.sh 3 7411 [--config switchboard.yaml …]
#
#   deploy/start-replicas.sh stop        # ends the replicas this script started (by their saved pids)
#
# The same database and the same secret key make the replicas one cluster: nothing else to configure.
# The first replica starts alone (it migrates the database and creates the administrator), the others
# after it is ready. Logs and pids go to $SWITCHBOARD_RUN_DIR (default ./.switchboard/replicas).
set -eu

RUN_DIR=${SWITCHBOARD_RUN_DIR:-./.switchboard/replicas}
SWITCHBOARD=${SWITCHBOARD_BIN:-switchboard}

if [ "${1:-}" = stop ]; then
  for pidfile in "$RUN_DIR"/*.pid; do
    [ -e "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    # SIGTERM: a graceful shutdown (running calls finish, the replica leaves the cluster).
    kill -TERM "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
  exit 0
fi

COUNT=${1:?usage: start-replicas.sh COUNT BASE_PORT [serve options…] | stop}
BASE_PORT=${2:?usage: start-replicas.sh COUNT BASE_PORT [serve options…] | stop}
shift 2

case "${SWITCHBOARD_DB:-}" in
  postgres://*|postgresql://*) ;;
  *) echo "start-replicas.sh: set SWITCHBOARD_DB to a postgres:// URL: replicas share one PostgreSQL database" >&2; exit 2 ;;
esac
if [ -z "${SWITCHBOARD_SECRET_KEY:-}" ]; then
  echo "start-replicas.sh: set SWITCHBOARD_SECRET_KEY (the same on every replica; make one with: openssl rand -base64 32)" >&2
  exit 2
fi

mkdir -p "$RUN_DIR"

wait_ready() {
  port=$1
  tries=0
  until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
      echo "start-replicas.sh: the replica on port $port is not ready after 20 s; see $RUN_DIR/replica-$port.log" >&2
      exit 1
    fi
    sleep 0.2
  done
}

index=0
while [ "$index" -lt "$COUNT" ]; do
  port=$((BASE_PORT + index))
  "$SWITCHBOARD" serve --db "$SWITCHBOARD_DB" --port "$port" "$@" >"$RUN_DIR/replica-$port.log" 2>&1 &
  echo $! >"$RUN_DIR/replica-$port.pid"
  # The first one migrates and bootstraps alone; the rest may start together.
  if [ "$index" -eq 0 ]; then wait_ready "$port"; fi
  index=$((index + 1))
done
index=1
while [ "$index" -lt "$COUNT" ]; do
  wait_ready $((BASE_PORT + index))
  index=$((index + 1))
done
echo "started $COUNT replicas on ports $BASE_PORT-$((BASE_PORT + COUNT - 1)); logs and pids in $RUN_DIR"
