//===- Benchmarks.h - Timing cuBLAS GEMMs and cuDNN convolutions -*- C++
//-*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// One benchmark per shape: random non-zero fp32 inputs, one run checked
// against the CPU reference when the shape is small (BenchShapes.h), then
// timed exactly like tessel-cuda-runner times generated kernels (Timing.h).
// cuBLAS runs cublasSgemm / cublasSgemmStridedBatched with
// CUBLAS_DEFAULT_MATH (no TF32: that needs CUBLAS_TF32_TENSOR_OP_MATH); cuDNN
// runs cudnnConvolutionForward (NCHW, fp32, CUDNN_FMA_MATH so that it uses no
// TF32 either) with the algorithm that cudnnFindConvolutionForwardAlgorithmEx
// measured fastest, its workspace allocated.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_VENDOR_BENCH_BENCHMARKS_H
#define TESSEL_TOOLS_TESSEL_VENDOR_BENCH_BENCHMARKS_H

#include "VendorLibraries.h"

#include "tessel/Runtime/BenchShapes.h"
#include "tessel/Runtime/CudaDriver.h"
#include "tessel/Runtime/Statistics.h"
#include "tessel/Runtime/Timing.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessel {
namespace runtime {

/// Results whose relative L2 error exceeds this are wrong_result (plain
/// fp32 lands far below it; TF32 near 3e-4).
constexpr double kMaxRelativeL2Error = 1e-4;

/// The outcome of one shape.
struct BenchResult {
  /// "cublas" or "cudnn".
  std::string library;
  /// "gemm", "gemm_strided_batched" or "conv2d_fprop".
  std::string op;
  /// The shape as a JSON object.
  std::string shapeJSON;
  /// A MeasureStatus string.
  std::string status = "ok";
  std::string message;
  /// The library version, e.g. 130000 (cuBLAS) or 91900 (cuDNN).
  int64_t libraryVersion = 0;
  TimingStats timing;
  double flops = 0;
  /// What ran: the cuBLAS function or the cuDNN algorithm.
  std::string algorithm;
  int64_t workspaceBytes = 0;
  /// Whether the result was compared with the CPU reference.
  bool verified = false;
  double relativeL2Error = 0;
  /// The CUDA context is unusable: the tool must exit (code 4).
  bool sticky = false;

  /// The JSON line of the result.
  std::string toJSON(const std::string &deviceName) const;
  /// A line for people.
  std::string toText() const;
};

/// Runs benchmarks on one device and stream; opens the vendor libraries
/// and creates their handles on first use.
class VendorBench {
public:
  VendorBench(const CudaDriver &driver, CUstream stream, L2Flusher *flusher,
              const TimingOptions &options);
  ~VendorBench();

  BenchResult runGemm(const GemmShape &shape);
  BenchResult runConv(const ConvShape &shape);

private:
  struct Libraries;

  /// Runs `work` once, checks `output` against `computeReference()` when the
  /// work is small enough to verify on the CPU, then times `work`; a
  /// mismatch is recorded in `result`, a CUDA failure is returned.
  Status runCheckedAndTimed(
      const TimedWork &work, const std::string &what,
      const DeviceBuffer &output, int64_t amountOfWork,
      const std::function<std::vector<double>()> &computeReference,
      BenchResult &result);

  const CudaDriver &driver;
  CUstream stream;
  L2Flusher *flusher;
  TimingOptions options;
  std::unique_ptr<Libraries> libraries;
};

} // namespace runtime
} // namespace tessel

#endif // TESSEL_TOOLS_TESSEL_VENDOR_BENCH_BENCHMARKS_H
