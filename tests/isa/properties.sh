#!/usr/bin/env bash
# The reference port's properties on the path NPUCONF_ISA names (run through
# on_path.sh): `npuconf run ARGS` must pass and its report.json must name that
# path.   properties.sh NPUCONF ARGS...
set -uo pipefail
npuconf=$1
shift
out=$(mktemp -d "${TMPDIR:-/tmp}/npuconf-isa-XXXXXX")
trap 'rm -rf "$out"' EXIT
"$npuconf" run --port reference --out "$out" "$@"
code=$?
if [ "$code" -ne 0 ]; then
  echo "npuconf run on NPUCONF_ISA=${NPUCONF_ISA:-} exited $code"
  exit 1
fi
isa=$(sed -n 's/^ *"isa": "\([a-z0-9]*\)".*/\1/p' "$out/report.json" | head -n 1)
if [ "$isa" != "${NPUCONF_ISA:-}" ]; then
  echo "report.json names isa '$isa', not the forced '${NPUCONF_ISA:-}'"
  exit 1
fi
echo "isa $isa: conformant"
