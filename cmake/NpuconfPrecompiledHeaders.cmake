# Precompiled headers for npuconf's own targets (NPUCONF_PCH, on by default).
#
# Parsing the same third-party and standard headers is what every translation
# unit of the suite repeats: nlohmann/json, Eigen, RapidCheck (GoogleTest in the
# tests) and the standard library take about 1.9 s of the 4-5 s a heavy TU
# spends parsing (g++ 12, -ftime-report; README "Build time"). Only headers outside this
# repository are listed, so a rewrite of the project's headers never breaks the
# list; -Winvalid-pch makes a header that cannot be used a warning, not a
# silent slowdown.

# CMake opens each precompiled header with `#pragma GCC system_header`; with it
# g++ 12 reports a false -Warray-bounds inside std::string's copy in code that
# only pushes a string into a vector (conformance/cann/expected.cpp). The
# headers listed are system headers anyway, so the pragma adds nothing here.
set(CMAKE_PCH_PROLOGUE "")

set(NPUCONF_PCH_STD <algorithm> <array> <cstdint> <cstring> <functional> <map> <memory>
                    <optional> <set> <span> <sstream> <string> <string_view> <vector>)

# npuconf_precompile_headers(): after the libraries are defined. One header set
# per kind of target; targets of a kind reuse one precompiled header when their
# flags allow it (same options and position-independence).
function(npuconf_precompile_headers)
  if(NOT NPUCONF_PCH)
    return()
  endif()
  # The libraries: json and Eigen reach every TU through core/; RapidCheck
  # reaches conformance/ and cli/ through generators/.
  target_precompile_headers(npuconf_core PRIVATE ${NPUCONF_PCH_STD} <nlohmann/json.hpp>
                            <Eigen/Core> <rapidcheck.h>)
  foreach(target npuconf_reference npuconf_oracles npuconf_verify npuconf_vectors npuconf_reports
                 npuconf_mutants npuconf_conformance npuconf_cli)
    target_precompile_headers(${target} REUSE_FROM npuconf_core)
  endforeach()
  foreach(target npuconf_core npuconf_reference npuconf_oracles npuconf_verify npuconf_vectors
                 npuconf_reports npuconf_mutants npuconf_conformance npuconf_cli)
    # One precompiled header needs one -fPIC setting: core/ and reference/ are
    # position-independent, so the others are too.
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Winvalid-pch>)
  endforeach()
endfunction()
