#!/usr/bin/env bash
# run_with_gpus.sh K COMMAND [ARGUMENT...]: runs COMMAND where this machine has K GPUs or more, and
# otherwise says it is skipped, with exit code 77 (a CTest test's SKIP_RETURN_CODE).
set -uo pipefail
wanted=$1
shift
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
if [ "${have:-0}" -lt "$wanted" ]; then
  echo "skipped: needs $wanted GPUs, this machine has ${have:-0}"
  exit 77
fi
exec "$@"
