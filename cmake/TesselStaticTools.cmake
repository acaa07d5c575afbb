# TESSEL_STATIC_TOOLS=ON: link every Tessel executable against Debian's static
# MLIR/LLVM archives (/usr/lib/llvm-22/lib/lib{MLIR,LLVM}*.a) instead of the
# shared libMLIR.so/libLLVM.so, with libstdc++/libgcc linked in too, so that
# the tools run on a machine without LLVM, MLIR, z3, icu, ... (see
# docs/Bundle.md and scripts/build-bundle.sh).
#
# Included by the root CMakeLists.txt after find_package(MLIR) and after it
# sets MLIR_LINK_MLIR_DYLIB. The tree's CMakeLists files keep linking `MLIR`
# (the dylib target) as usual: a call deferred to the end of the root
# directory rewrites `MLIR` and `LLVM` in the link libraries of every target
# of the tree into TesselMLIRStatic and TesselLLVMStatic, interface libraries
# over the static archives. New tools and libraries need nothing special.
#
# What the static link uses from the system: libsqlite3.a, libz.a, libzstd.a
# (package libzstd-dev, if installed; otherwise libzstd.so.1, which the bundle
# then ships). Dropped on purpose: libz3 (only LLVM's Z3 solver, unused),
# libedit, libxml2, libffi, libcurl, libpfm (LLVM libraries MLIR does not use).
# XGBoost has no static archive in Debian: tools linking it keep
# libxgboost.so, found through the $ORIGIN/../lib rpath.

set(MLIR_LINK_MLIR_DYLIB OFF)
set(LLVM_LINK_LLVM_DYLIB OFF)

string(APPEND CMAKE_EXE_LINKER_FLAGS
  " -static-libstdc++ -static-libgcc -Wl,--gc-sections -Wl,--as-needed")
if(NOT CMAKE_BUILD_TYPE MATCHES "^(Debug|RelWithDebInfo)$")
  string(APPEND CMAKE_EXE_LINKER_FLAGS " -Wl,--strip-all")
endif()
# System libraries the static archives (LLVM, sqlite) need, last on the line.
string(APPEND CMAKE_CXX_STANDARD_LIBRARIES " -lpthread -ldl -lrt -lm")
# Shared libraries a tool still needs (libxgboost) go to <bundle>/lib. An
# old-style DT_RPATH, unlike DT_RUNPATH, also finds their own dependencies
# (libdmlc, libgomp) there.
string(APPEND CMAKE_EXE_LINKER_FLAGS " -Wl,--disable-new-dtags")
set(CMAKE_BUILD_RPATH "\$ORIGIN/../lib")
set(CMAKE_INSTALL_RPATH "\$ORIGIN/../lib")

# --- Static third-party libraries ------------------------------------------
find_library(TESSEL_SQLITE3_STATIC NAMES libsqlite3.a)
if(TESSEL_SQLITE3_STATIC)
  # FindSQLite3 (called later by the root CMakeLists) keeps this value.
  set(SQLite3_LIBRARY "${TESSEL_SQLITE3_STATIC}" CACHE FILEPATH
      "SQLite3 library (static: TESSEL_STATIC_TOOLS)" FORCE)
else()
  message(WARNING "TESSEL_STATIC_TOOLS: no libsqlite3.a, the tools link libsqlite3.so")
endif()

find_library(TESSEL_ZLIB_STATIC NAMES libz.a)
find_library(TESSEL_ZSTD_STATIC NAMES libzstd.a)
if(NOT TESSEL_ZSTD_STATIC)
  find_library(TESSEL_ZSTD_SHARED NAMES libzstd.so libzstd.so.1)
  message(STATUS "TESSEL_STATIC_TOOLS: no libzstd.a (install libzstd-dev); "
                 "linking ${TESSEL_ZSTD_SHARED}")
endif()

# --- Static MLIR/LLVM imported targets --------------------------------------
# Debian builds MLIR against libLLVM.so, so every exported MLIR archive lists
# `LLVM` (the dylib) instead of its LLVM components: stand in for it with all
# the LLVM archives (TesselLLVMStatic). Also drop the optional system
# libraries and use static zlib/zstd.
function(_tessel_static_fix_imported target)
  get_target_property(type ${target} TYPE)
  if(NOT type STREQUAL "STATIC_LIBRARY")
    return()
  endif()
  get_target_property(deps ${target} INTERFACE_LINK_LIBRARIES)
  if(NOT deps)
    return()
  endif()
  set(out)
  foreach(dep IN LISTS deps)
    if(dep STREQUAL "LLVM")
      list(APPEND out TesselLLVMStatic)
    elseif(dep STREQUAL "$<LINK_ONLY:LLVM>")
      list(APPEND out "$<LINK_ONLY:TesselLLVMStatic>")
    elseif(dep MATCHES "^(\\$<LINK_ONLY:)?(MLIR|Polly|PollyISL|LibEdit::LibEdit|LibXml2::LibXml2|FFI::ffi|CURL::libcurl|pfm|.*libz3\\.so.*)>?$")
      continue()
    elseif(dep STREQUAL "ZLIB::ZLIB" AND TESSEL_ZLIB_STATIC)
      list(APPEND out "${TESSEL_ZLIB_STATIC}")
    elseif(dep STREQUAL "zstd::libzstd_shared" OR dep STREQUAL "zstd::libzstd_static")
      if(TESSEL_ZSTD_STATIC)
        list(APPEND out "${TESSEL_ZSTD_STATIC}")
      elseif(TESSEL_ZSTD_SHARED)
        list(APPEND out "${TESSEL_ZSTD_SHARED}")
      endif()
    else()
      list(APPEND out "${dep}")
    endif()
  endforeach()
  set_target_properties(${target} PROPERTIES INTERFACE_LINK_LIBRARIES "${out}")
endfunction()

# Every LLVM archive but those needing libraries left out above, tablegen,
# fuzzing, exegesis, Polly and the interpreter (libffi).
set(_tessel_llvm_static)
foreach(lib IN LISTS LLVM_AVAILABLE_LIBS)
  if(NOT TARGET ${lib} OR
     lib MATCHES "^(LLVMLineEditor|LLVMWindowsManifest|LLVMDebuginfod|LLVMExegesis.*|LLVMInterpreter|LLVMTableGen.*|LLVMFuzz.*|LLVMCFIVerify|LLVMDiff|LLVMOptDriver|LLVMExtensions|LLVMgold|Polly.*|LLVMPolly)$")
    continue()
  endif()
  get_target_property(type ${lib} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    list(APPEND _tessel_llvm_static ${lib})
  endif()
endforeach()
add_library(TesselLLVMStatic INTERFACE)
target_link_libraries(TesselLLVMStatic INTERFACE ${_tessel_llvm_static})

foreach(lib IN LISTS LLVM_AVAILABLE_LIBS MLIR_EXPORTED_TARGETS)
  if(TARGET ${lib})
    _tessel_static_fix_imported(${lib})
  endif()
endforeach()

# Everything libMLIR.so offers, as archives: the linker only pulls the
# objects a tool references. Left out: tests, the C API, runtimes built as
# shared libraries, tablegen/PDLL/LSP tooling, and the dylib itself.
get_property(_tessel_mlir_all GLOBAL PROPERTY MLIR_ALL_LIBS)
set(_tessel_mlir_static)
foreach(lib IN LISTS _tessel_mlir_all)
  if(NOT TARGET ${lib} OR
     lib MATCHES "^(MLIR|MLIRExecutionEngineShared|MLIRMlirOptMain|mlir_.*|MLIRCAPI.*|MLIRTest.*|.*Test|.*TestPasses|MLIRTableGen|MLIRTblgenLib|MLIRPDLL.*|MLIRLspServer.*)$")
    continue()
  endif()
  get_target_property(type ${lib} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    list(APPEND _tessel_mlir_static ${lib})
  endif()
endforeach()
add_library(TesselMLIRStatic INTERFACE)
target_link_libraries(TesselMLIRStatic INTERFACE ${_tessel_mlir_static})

# --- Keep only the LLVM backends Tessel uses ---------------------------------
# MLIR's LLVM-dialect passes call llvm::InitializeAllTargets() (through
# mlir::LLVM::detail::initializeBackendsOnce), which pulls every backend of
# Debian's LLVM into a static tool: about 80 MB, AMDGPU alone 29 MB. Empty
# definitions of the other backends' LLVMInitialize* functions, linked into
# every executable as an object file, keep those archives out. Targets left
# out can no longer be looked up (TargetRegistry says no such target).
set(TESSEL_STATIC_LLVM_TARGETS "NVPTX;X86" CACHE STRING
    "LLVM backends linked into the static tools (NVPTX: PTX; X86: host JIT)")
set(_tessel_stub_src "${CMAKE_BINARY_DIR}/TesselLLVMTargetStubs.cpp")
set(_tessel_stubs "// Generated by cmake/TesselStaticTools.cmake: backends left out of\n// the static tools (TESSEL_STATIC_LLVM_TARGETS=${TESSEL_STATIC_LLVM_TARGETS}).\n")
foreach(kind_def IN ITEMS "TARGET:Targets:TargetInfo,Target,TargetMC"
                          "ASM_PRINTER:AsmPrinters:AsmPrinter"
                          "ASM_PARSER:AsmParsers:AsmParser"
                          "DISASSEMBLER:Disassemblers:Disassembler"
                          "TARGETMCA:TargetMCAs:TargetMCA")
  string(REPLACE ":" ";" kind_def "${kind_def}")
  list(GET kind_def 0 macro)
  list(GET kind_def 1 def)
  list(GET kind_def 2 suffixes)
  string(REPLACE "," ";" suffixes "${suffixes}")
  file(STRINGS "${LLVM_INCLUDE_DIRS}/llvm/Config/${def}.def" lines
       REGEX "^LLVM_${macro}\\(")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^LLVM_${macro}\\(([A-Za-z0-9_]+)\\).*" "\\1" target "${line}")
    if(NOT target IN_LIST TESSEL_STATIC_LLVM_TARGETS)
      foreach(suffix IN LISTS suffixes)
        string(APPEND _tessel_stubs "extern \"C\" void LLVMInitialize${target}${suffix}() {}\n")
      endforeach()
    endif()
  endforeach()
endforeach()
file(CONFIGURE OUTPUT "${_tessel_stub_src}" CONTENT "${_tessel_stubs}")
add_library(TesselLLVMTargetStubs OBJECT "${_tessel_stub_src}")

# --- Rewrite the tree's targets at the end of configuration -----------------
function(_tessel_static_collect_targets dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _tessel_static_collect_targets("${sub}" sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(_tessel_static_rewrite_list target property)
  get_target_property(libs ${target} ${property})
  if(NOT libs)
    return()
  endif()
  set(out)
  set(changed FALSE)
  foreach(lib IN LISTS libs)
    if(lib MATCHES "^(MLIR|LLVM)$")
      list(APPEND out Tessel${lib}Static)
      set(changed TRUE)
    elseif(lib MATCHES "^\\$<LINK_ONLY:(MLIR|LLVM)>$")
      list(APPEND out "$<LINK_ONLY:Tessel${CMAKE_MATCH_1}Static>")
      set(changed TRUE)
    else()
      list(APPEND out "${lib}")
    endif()
  endforeach()
  if(changed)
    list(REMOVE_DUPLICATES out)
    set_property(TARGET ${target} PROPERTY ${property} "${out}")
  endif()
endfunction()

function(tessel_static_rewrite_targets)
  _tessel_static_collect_targets("${CMAKE_SOURCE_DIR}" targets)
  set(tools)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|INTERFACE_LIBRARY)$")
      if(NOT type STREQUAL "INTERFACE_LIBRARY")
        _tessel_static_rewrite_list(${target} LINK_LIBRARIES)
      endif()
      _tessel_static_rewrite_list(${target} INTERFACE_LINK_LIBRARIES)
    endif()
    if(type STREQUAL "EXECUTABLE")
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:TesselLLVMTargetStubs>)
      list(APPEND tools ${target})
    endif()
  endforeach()
  # SQLite's archive needs libm/libdl/libpthread (on the line already).
  message(STATUS "TESSEL_STATIC_TOOLS: static MLIR/LLVM for ${tools}")
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
  CALL tessel_static_rewrite_targets)
