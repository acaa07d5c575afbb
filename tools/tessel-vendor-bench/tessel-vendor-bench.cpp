//===- tessel-vendor-bench.cpp - Times cuBLAS and cuDNN baselines ---------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// tessel-vendor-bench --gemm=M,N,K [--batch=B] | --conv=N,C,H,W,F,R,S,
//                     stride,pad[,dilation] | --shapes=FILE
//                     [--repeat-ms=100] [--warmup-ms=25] [--min-repeats=5]
//                     [--device=D] [--no-flush-l2] [--json]
//
// Times the vendor libraries on the shapes Tessel tunes, with the timing
// method of tessel-cuda-runner, so that tuned kernels compare with cuBLAS and
// cuDNN on equal terms. Prints one line per shape (JSON with --json or
// --shapes). Exit codes: 0 every shape answered (each line has its status);
// 2 bad arguments or shapes; 3 no CUDA driver or device; 4 a shape left the
// CUDA context unusable (its line was written).
//
//===----------------------------------------------------------------------===//

#include "Benchmarks.h"

#include "tessel/Runtime/BenchShapes.h"
#include "tessel/Runtime/CudaDriver.h"
#include "tessel/Runtime/Request.h"
#include "tessel/Runtime/Timing.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace tessel::runtime;

namespace {

constexpr int kExitUsage = 2;
constexpr int kExitNoDevice = 3;
constexpr int kExitSticky = 4;

const char *const kUsage =
    "usage: tessel-vendor-bench --gemm=M,N,K [--batch=B]\n"
    "       tessel-vendor-bench --conv=N,C,H,W,F,R,S,stride,pad[,dilation]\n"
    "       tessel-vendor-bench --shapes=FILE\n"
    "options: --repeat-ms=MS (100) --warmup-ms=MS (25) --min-repeats=N (5)\n"
    "         --device=D (0) --no-flush-l2 --json\n";

int failUsage(const std::string &message) {
  std::fprintf(stderr, "tessel-vendor-bench: %s\n%s", message.c_str(), kUsage);
  return kExitUsage;
}

/// Parses a non-negative decimal number.
bool parseNumber(const std::string &text, double &value) {
  if (text.empty() ||
      text.find_first_not_of("0123456789.") != std::string::npos)
    return false;
  char *end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end && *end == '\0';
}

void emit(const std::string &line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv) {
  std::string shapeArgs, shapesFile;
  bool jsonOutput = false;
  TimingOptions options;
  double ordinal = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *prefix) -> const char * {
      size_t length = std::char_traits<char>::length(prefix);
      return arg.compare(0, length, prefix) == 0 ? argv[i] + length : nullptr;
    };
    double number;
    if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (value("--gemm=") || value("--conv=") || value("--batch=")) {
      shapeArgs += " " + arg;
    } else if (const char *file = value("--shapes=")) {
      shapesFile = file;
    } else if (arg == "--json") {
      jsonOutput = true;
    } else if (arg == "--no-flush-l2") {
      options.flushL2 = false;
    } else if (const char *text = value("--repeat-ms=")) {
      if (!parseNumber(text, number) || number <= 0)
        return failUsage("invalid " + arg + ": expected a positive number");
      options.minTimeMs = number;
    } else if (const char *text = value("--warmup-ms=")) {
      if (!parseNumber(text, number))
        return failUsage("invalid " + arg + ": expected a non-negative number");
      options.warmupMs = number;
    } else if (const char *text = value("--min-repeats=")) {
      if (!parseNumber(text, number) || number < 1 || number > 1e6 ||
          number != static_cast<int64_t>(number))
        return failUsage("invalid " + arg + ": expected a positive integer");
      options.minRepeats = static_cast<int64_t>(number);
      options.maxRepeats = std::max(options.maxRepeats, options.minRepeats);
    } else if (const char *text = value("--device=")) {
      if (!parseNumber(text, ordinal) || ordinal > 1024 ||
          ordinal != static_cast<int>(ordinal))
        return failUsage("invalid " + arg +
                         ": expected a non-negative integer");
    } else {
      return failUsage("unknown option '" + arg + "'");
    }
  }

  std::vector<BenchShape> shapes;
  std::string error;
  if (!shapesFile.empty()) {
    if (!shapeArgs.empty())
      return failUsage("--shapes cannot be combined with --gemm, --conv or "
                       "--batch");
    std::string text;
    if (!readFile(shapesFile, text, error))
      return failUsage(error);
    if (!parseShapesFile(text, shapes, error))
      return failUsage(shapesFile + ": " + error);
    jsonOutput = true;
  } else {
    BenchShape shape;
    if (!parseShapeLine(shapeArgs, shape, error))
      return failUsage(error);
    shapes.push_back(shape);
  }

  std::unique_ptr<CudaDriver> driver =
      CudaDriver::open(static_cast<int>(ordinal), error);
  if (!driver) {
    std::fprintf(stderr, "%s: %s\n", kNoDeviceMessage, error.c_str());
    return kExitNoDevice;
  }
  DeviceInfo device = driver->queryDevice();
  Stream stream(*driver);
  L2Flusher flusher(*driver);
  Status status = stream.create();
  if (status.ok() && options.flushL2)
    status = flusher.allocate(static_cast<size_t>(device.l2Bytes));
  if (!status.ok()) {
    std::fprintf(stderr, "%s: cannot set up device %d: %s\n", kNoDeviceMessage,
                 static_cast<int>(ordinal), status.message.c_str());
    return kExitNoDevice;
  }

  VendorBench bench(*driver, stream.get(), options.flushL2 ? &flusher : nullptr,
                    options);
  for (const BenchShape &shape : shapes) {
    BenchResult result = shape.kind == BenchShape::Kind::Gemm
                             ? bench.runGemm(shape.gemm)
                             : bench.runConv(shape.conv);
    emit(jsonOutput ? result.toJSON(device.name) : result.toText());
    if (result.sticky)
      std::_Exit(kExitSticky);
  }
  return 0;
}
