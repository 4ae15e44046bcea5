# npuconf_add_port_test: gate a port in CTest with one call.
#
#   npuconf_add_port_test(NAME <name>
#                         PORT <target | path | exec:CMD ARGS…>
#                         [PROFILES <glob>…] [ROUTINES <glob>…] [PROPERTIES <glob>…]
#                         [WAIVERS <file>]
#                         [ARGS <npuconf run option>…])
#
# adds the CTest test <name>, which runs
#
#   npuconf run --port PORT [--profile G]… [--routine G]… [--property G]…
#               [--waivers FILE] --out ${CMAKE_CURRENT_BINARY_DIR}/npuconf-reports/<name> ARGS…
#
# Its result is npuconf's exit status: 0 (conformant) passes; 1 (non-conformant),
# 2 (bad usage or input), 3 (the port could not be loaded or crashed the runner)
# and 4 (nothing was checked: no selected property is claimed and applicable)
# fail. Each failure's `reproduce:` command (`npuconf check …`) is in the test's
# output (`ctest --output-on-failure`); report.json, junit.xml, report.md and
# report.html are in the --out directory. The test carries the label `npuconf`
# (`ctest -L npuconf` runs the gates alone).
#
# PORT is
#   - a CMake target: a SHARED or MODULE library (the C ABI of npuconf/port.h) is
#     passed as its file, $<TARGET_FILE:…>; an EXECUTABLE as `exec:` of its file;
#   - `exec:CMD ARGS…`, a program speaking docs/port-protocol.md (generator
#     expressions such as $<TARGET_FILE:…> work inside it). The directory of the
#     npuconf_port Python module is put on PYTHONPATH for the test, so
#     `exec:python3 my_port.py` finds `import npuconf_port` from any prefix;
#   - `reference` or `mutant:NAME`, npuconf's built-in ports;
#   - otherwise the path of a port library, relative to CMAKE_CURRENT_SOURCE_DIR
#     (a generator expression such as $<TARGET_FILE:…> is passed as it is).
# PROFILES, ROUTINES and PROPERTIES are globs as `npuconf run` takes them
# (`npuconf list profiles|routines|properties`); without them every profile,
# routine and property runs, and only the port's claims narrow the run.
# WAIVERS FILE (relative to CMAKE_CURRENT_SOURCE_DIR) is passed as
# `--waivers FILE`: the option comes with waiver files in a later npuconf; an
# npuconf without it rejects the run as bad usage (exit 2), so the test fails.
# ARGS are passed to `npuconf run` last, e.g. ARGS --no-real-shapes --seed 7.
#
# The test runs in CMAKE_CURRENT_BINARY_DIR. Set more test properties with
# set_tests_properties(<name> …), e.g. TIMEOUT.
#
# The program run is the target npuconf::npuconf: the installed one after
# find_package(npuconf), npuconf's own in a build that has npuconf as a
# subproject (add_subdirectory, FetchContent).

include_guard(GLOBAL)

# The npuconf_port Python module: installed beside this file's package
# (lib/python3/dist-packages), or python/ of a source tree.
if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../../python3/dist-packages/npuconf_port/__init__.py")
  get_filename_component(_npuconf_python_dir "${CMAKE_CURRENT_LIST_DIR}/../../python3/dist-packages"
                         ABSOLUTE)
elseif(EXISTS "${CMAKE_CURRENT_LIST_DIR}/../python/npuconf_port/__init__.py")
  get_filename_component(_npuconf_python_dir "${CMAKE_CURRENT_LIST_DIR}/../python" ABSOLUTE)
else()
  set(_npuconf_python_dir "")
endif()
set_property(GLOBAL PROPERTY NPUCONF_PYTHON_DIR "${_npuconf_python_dir}")
unset(_npuconf_python_dir)

function(npuconf_add_port_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;PORT;WAIVERS" "PROFILES;ROUTINES;PROPERTIES;ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "npuconf_add_port_test: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required NAME PORT)
    if(NOT arg_${required})
      message(FATAL_ERROR "npuconf_add_port_test: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET npuconf::npuconf)
    message(FATAL_ERROR "npuconf_add_port_test: no target npuconf::npuconf "
                        "(call find_package(npuconf CONFIG REQUIRED) first)")
  endif()

  set(port "${arg_PORT}")
  if(TARGET "${arg_PORT}")
    get_target_property(type "${arg_PORT}" TYPE)
    if(type STREQUAL "SHARED_LIBRARY" OR type STREQUAL "MODULE_LIBRARY")
      set(port "$<TARGET_FILE:${arg_PORT}>")
    elseif(type STREQUAL "EXECUTABLE")
      set(port "exec:'$<TARGET_FILE:${arg_PORT}>'")
    else()
      message(FATAL_ERROR "npuconf_add_port_test(${arg_NAME}): PORT target ${arg_PORT} is a "
                          "${type}; a port is a SHARED or MODULE library (npuconf/port.h) "
                          "or an EXECUTABLE (exec: protocol)")
    endif()
  elseif(NOT port MATCHES "^(exec:|mutant:|\\$<)" AND NOT port STREQUAL "reference")
    get_filename_component(port "${port}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()

  set(out "${CMAKE_CURRENT_BINARY_DIR}/npuconf-reports/${arg_NAME}")
  set(command $<TARGET_FILE:npuconf::npuconf> run --port "${port}")
  foreach(glob IN LISTS arg_PROFILES)
    list(APPEND command --profile "${glob}")
  endforeach()
  foreach(glob IN LISTS arg_ROUTINES)
    list(APPEND command --routine "${glob}")
  endforeach()
  foreach(glob IN LISTS arg_PROPERTIES)
    list(APPEND command --property "${glob}")
  endforeach()
  if(arg_WAIVERS)
    get_filename_component(waivers "${arg_WAIVERS}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND command --waivers "${waivers}")
  endif()
  list(APPEND command --out "${out}" ${arg_ARGS})

  add_test(NAME "${arg_NAME}" COMMAND ${command} WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  set_tests_properties("${arg_NAME}" PROPERTIES LABELS npuconf)
  get_property(python_dir GLOBAL PROPERTY NPUCONF_PYTHON_DIR)
  if(python_dir)
    set_tests_properties("${arg_NAME}" PROPERTIES ENVIRONMENT_MODIFICATION
                                                  "PYTHONPATH=path_list_prepend:${python_dir}")
  endif()
endfunction()
