//===- Request.h - Measurement requests of tessel-cuda-runner ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The request that the parent (CudaMeasurer) writes for tessel-cuda-runner,
// version 1 of docs/MeasureProtocol.md: timing options and, per candidate,
// the modules to load, the device buffers, the steps to run and the checks of
// the outputs. Parsing is strict: unknown fields are errors, every index and
// byte range is checked against the buffers, and the files named by the
// request are checked to exist with the right size, so that a malformed
// request is rejected (exit 2) before any GPU work starts. Every error names
// the field, e.g. "candidates[0].buffers[1]: missing field 'bytes'". The
// writer (RequestWriter.cpp) is the parser's inverse; CudaMeasurer fills these
// structs from its launch plans, whose launches and parameters are these
// structs too, so the request has one declaration.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_REQUEST_H
#define TESSEL_RUNTIME_REQUEST_H

#include "tessel/Runtime/Check.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel {
namespace runtime {

/// The only request version this runtime reads.
constexpr int64_t kRequestVersion = 1;

/// The "options" object: how candidates are timed and checked.
struct RequestOptions {
  double warmupMs = 25;
  double minTimeMs = 100;
  int64_t minRepeats = 5;
  int64_t maxRepeats = 10000;
  bool flushL2 = true;
  bool verify = true;
};

/// How a device buffer is filled before the first run.
enum class BufferInit { File, Poison, Zero };

/// One device allocation.
struct BufferSpec {
  int64_t bytes = 0;
  BufferInit init = BufferInit::Poison;
  /// The file uploaded for BufferInit::File (its size equals `bytes`).
  std::string file;
};

/// One kernel parameter.
struct LaunchParam {
  enum class Kind { Pointer, I64, I32, Bytes };
  Kind kind = Kind::I64;
  /// Kind::Pointer: buffer index and byte offset into it.
  int64_t buffer = 0;
  int64_t offset = 0;
  /// Kind::I64 / Kind::I32.
  int64_t value = 0;
  /// Kind::Bytes: the raw little-endian bytes.
  std::vector<uint8_t> bytes;

  /// The size of the parameter in the kernel's parameter buffer.
  size_t getSize() const;
};

/// A kernel launch.
struct LaunchStep {
  std::string module;
  std::string kernel;
  std::array<uint32_t, 3> grid = {1, 1, 1};
  std::array<uint32_t, 3> block = {1, 1, 1};
  /// Dynamic shared memory in bytes.
  uint32_t sharedBytes = 0;
  std::vector<LaunchParam> params;
};

/// A device-to-device copy between (or within) buffers.
struct CopyStep {
  int64_t src = 0;
  int64_t srcOffset = 0;
  int64_t dst = 0;
  int64_t dstOffset = 0;
  int64_t bytes = 0;
};

/// One step of a candidate: a launch or a copy.
struct Step {
  enum class Kind { Launch, Copy };
  Kind kind = Kind::Launch;
  LaunchStep launch;
  CopyStep copy;
};

/// A comparison of part of a buffer with a file after one run.
struct CheckSpec {
  int64_t buffer = 0;
  int64_t offset = 0;
  DType dtype = DType::F32;
  int64_t count = 0;
  /// The file holding `count` elements of `dtype`.
  std::string expected;
  double rtol = 0;
  double atol = 0;
};

/// One candidate to check and time.
struct Candidate {
  std::string key;
  /// Module name -> cubin/fatbin/PTX file, in request order.
  std::vector<std::pair<std::string, std::string>> modules;
  std::vector<BufferSpec> buffers;
  std::vector<Step> steps;
  std::vector<CheckSpec> checks;
  /// Floating-point operations of one run of the steps (0 when unknown).
  double flops = 0;

  /// The file of module `name`, or null.
  const std::string *findModule(std::string_view name) const;
};

/// A whole request.
struct MeasureRequest {
  int64_t version = kRequestVersion;
  RequestOptions options;
  std::vector<Candidate> candidates;
};

/// The tolerances a check of `type` gets when the request names none:
/// f64 1e-10/1e-12, f32 1e-4/1e-5, f16 1e-2/1e-3, bf16 2e-2/1e-2 (rtol/atol),
/// integers 0/0 (exact).
std::pair<double, double> getDefaultTolerances(DType type);

/// Parses request text. Relative file paths are resolved against `baseDir`
/// (unless empty). With `checkFiles`, every named file must be readable and
/// buffer and expected files must have the exact size. On failure returns
/// false and sets `error` to a message naming the field.
bool parseRequest(std::string_view text, const std::string &baseDir,
                  MeasureRequest &request, std::string &error,
                  bool checkFiles = true);

/// The request as JSON text (one line and a newline), every field written:
/// parseRequest(writeRequest(r), "", r2, error, false) gives r2 equal to r.
/// File paths are written as they are (absolute ones stay absolute).
std::string writeRequest(const MeasureRequest &request);

/// Writes writeRequest(request) to `path`. On failure returns false and sets
/// `error` to "cannot write '<path>': <reason>".
bool saveRequest(const MeasureRequest &request, const std::string &path,
                 std::string &error);

/// Reads and parses the request file `path` (relative paths inside it are
/// relative to its directory). Errors start with "<path>: ".
bool loadRequest(const std::string &path, MeasureRequest &request,
                 std::string &error);

/// Reads a whole file. On failure returns false and sets `error` to
/// "cannot read '<path>': <reason>".
bool readFile(const std::string &path, std::string &contents,
              std::string &error);

} // namespace runtime
} // namespace tessel

#endif // TESSEL_RUNTIME_REQUEST_H
