#!/usr/bin/env bash
# Runs a command with the reference kernels forced onto one path (issue 19):
#   on_path.sh ISA NPUCONF -- COMMAND ARGS...
# NPUCONF is the npuconf program (or its emulator wrapper) used to ask the CPU.
# Exits 77 (CTest's skip code here) when the CPU lacks ISA, or when ISA is the
# path the default run already takes; otherwise runs COMMAND with NPUCONF_ISA=ISA.
set -uo pipefail
isa=$1 npuconf=$2
shift 2
[ "${1:-}" = "--" ] && shift
unset NPUCONF_FORCE_PORTABLE
if ! answer=$(NPUCONF_ISA=$isa "$npuconf" --version 2>&1); then
  echo "skip: $answer"
  exit 77
fi
default=$(env -u NPUCONF_ISA "$npuconf" --version 2>&1)
case $default in
  *"reference kernels: $isa;"*)
    echo "skip: $isa is this CPU's default path, which the other tests already run ($default)"
    exit 77
    ;;
esac
echo "NPUCONF_ISA=$isa: $answer"
export NPUCONF_ISA=$isa
exec "$@"
