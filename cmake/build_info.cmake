# Writes OUTPUT, the one source file that defines contend::version() and contend::commit()
# (core/common/version.h), and rewrites it only when its text changes: an unchanged commit then
# rebuilds nothing, a new one recompiles this one small file and relinks. Run at every build by
# the contend_build_info target (core/CMakeLists.txt):
#   cmake -DSOURCE_DIR=<repository root> -DOUTPUT=<file.cpp> -DVERSION=<x.y.z>
#         [-DGIT_EXECUTABLE=<git>] [-DCOMMIT=<text>] -P cmake/build_info.cmake
# The commit is `git rev-parse --short=12 HEAD`, with "-dirty" appended when tracked files differ
# from it (`git status --porcelain --untracked-files=no` prints anything); "unknown" when
# SOURCE_DIR is not the root of a git checkout (a tarball, a copy without .git) or there is no git,
# unless COMMIT is given (CONTEND_COMMIT: a packager building from a tarball knows it); inside a
# checkout git's answer wins, so a stale COMMIT never hides the real one.
cmake_minimum_required(VERSION 3.22)

foreach(_var SOURCE_DIR OUTPUT VERSION)
  if("${${_var}}" STREQUAL "")
    message(FATAL_ERROR "build_info.cmake: -D${_var}=... is required")
  endif()
endforeach()

function(contend_git_commit out)
  set(${out} "unknown" PARENT_SCOPE)
  if("${GIT_EXECUTABLE}" STREQUAL "" OR "${GIT_EXECUTABLE}" MATCHES "NOTFOUND$")
    return()
  endif()
  # safe.directory: a build as root of a user's checkout (scripts/test.sh under sudo) may still
  # read its commit; the build runs this tree's code anyway. --no-optional-locks: git status does
  # not take the index lock, so a build never gets in the way of a git command running beside it.
  set(_git "${GIT_EXECUTABLE}" -c "safe.directory=${SOURCE_DIR}" -C "${SOURCE_DIR}" --no-optional-locks)
  execute_process(COMMAND ${_git} rev-parse --show-toplevel
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _top ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0 OR "${_top}" STREQUAL "")
    return()
  endif()
  # The sources' own checkout only: a tarball unpacked inside some other repository is not at
  # that repository's commit.
  file(REAL_PATH "${_top}" _top)
  file(REAL_PATH "${SOURCE_DIR}" _src)
  if(NOT "${_top}" STREQUAL "${_src}")
    return()
  endif()
  execute_process(COMMAND ${_git} rev-parse --short=12 HEAD
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _hash ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _rc EQUAL 0 OR NOT "${_hash}" MATCHES "^[0-9a-f]+$")
    return()  # no commit yet, or a broken repository
  endif()
  execute_process(COMMAND ${_git} status --porcelain --untracked-files=no
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _changes ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_rc EQUAL 0 AND NOT "${_changes}" STREQUAL "")
    string(APPEND _hash "-dirty")
  endif()
  set(${out} "${_hash}" PARENT_SCOPE)
endfunction()

contend_git_commit(_commit)
if(_commit STREQUAL "unknown" AND NOT "${COMMIT}" STREQUAL "")
  set(_commit "${COMMIT}")
endif()
# Both end up in C++ string literals: keep to characters that need no escaping.
foreach(_var VERSION _commit)
  if(NOT "${${_var}}" MATCHES "^[A-Za-z0-9._+~-]+$")
    message(FATAL_ERROR "build_info.cmake: ${_var} \"${${_var}}\" may hold only letters, digits and . _ + ~ -")
  endif()
endforeach()

set(_text "// Generated at every build by cmake/build_info.cmake; do not edit. Contend's version (from
// project(VERSION)) and the git commit of this build: the only file a new commit recompiles.
#include \"core/common/version.h\"

namespace contend {

std::string_view version() { return \"${VERSION}\"; }
std::string_view commit() { return \"${_commit}\"; }

}  // namespace contend
")

set(_old "")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" _old)
endif()
if(NOT "${_old}" STREQUAL "${_text}")
  # Written beside and renamed, so a compile never reads half a file.
  get_filename_component(_dir "${OUTPUT}" DIRECTORY)
  file(MAKE_DIRECTORY "${_dir}")
  file(WRITE "${OUTPUT}.tmp" "${_text}")
  file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
  message(STATUS "Contend ${VERSION}, commit ${_commit}")
endif()
