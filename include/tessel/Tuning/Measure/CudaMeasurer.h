//===- CudaMeasurer.h - Timing candidates on a real GPU ---------*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// `cuda`: runs the launch plans of candidates on a GPU through
// `tessel-cuda-runner`, a child process speaking docs/MeasureProtocol.md. A
// candidate that faults (and kills the runner or poisons its CUDA context)
// or hangs (killed after a timeout) is recorded as such, and the runner is
// restarted for the next candidate: the measurement run goes on.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TUNING_MEASURE_CUDAMEASURER_H
#define TESSEL_TUNING_MEASURE_CUDAMEASURER_H

#include "tessel/Tuning/Measure/Measurer.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace mlir {
namespace tessel {

/// Options of the `cuda` measurer; the timing options are the request
/// options of docs/MeasureProtocol.md.
struct CudaMeasurerOptions {
  /// The runner executable; empty means `tessel-cuda-runner` next to the
  /// running executable, or $TESSEL_CUDA_RUNNER when set.
  std::string runnerPath;
  /// Extra arguments for the runner (before the request path).
  std::vector<std::string> runnerArgs;
  /// A candidate that has not answered after this many seconds is killed
  /// and recorded as a timeout.
  double timeoutSeconds = 20;
  double warmupMs = 25;
  double minTimeMs = 100;
  int minRepeats = 5;
  int maxRepeats = 10000;
  bool flushL2 = true;
  /// Where requests, cubins and data files go; empty means a fresh
  /// temporary directory, removed when the measurer is destroyed.
  std::string workDir;
};

/// Measures candidates with a plan on the GPU of the runner.
class CudaMeasurer : public Measurer {
public:
  /// Starts the runner once with an empty request to learn the device.
  /// Fails with the runner's one-line explanation (e.g. "no CUDA
  /// driver/device found: ...") when there is no usable GPU.
  static llvm::Expected<std::unique_ptr<CudaMeasurer>>
  create(CudaMeasurerOptions options);
  ~CudaMeasurer() override;

  /// "cuda:<device name>".
  std::string name() const override;
  bool isSimulated() const override { return false; }
  /// Every candidate needs a plan; its reference (when set) is checked
  /// before its time is accepted.
  std::vector<MeasureResult>
  measure(llvm::ArrayRef<MeasureCandidate> candidates) override;

  /// The runner's device line: name, driver, clocks, SM count, L2 size.
  const llvm::json::Object &getDeviceInfo() const { return deviceInfo; }

private:
  CudaMeasurerOptions options;
  llvm::json::Object deviceInfo;
  std::string workDir;
  bool ownsWorkDir = false;
  unsigned requestCount = 0;
  /// Data files already written, by the 128-bit hash and size of their
  /// bytes. Not by address: a worker decodes every queue item into new
  /// buffers, and a freed buffer's address comes back with other data.
  std::map<std::tuple<uint64_t, uint64_t, size_t>, std::string> dataFiles;

  explicit CudaMeasurer(CudaMeasurerOptions options);
  llvm::Expected<std::string>
  writeRequest(llvm::ArrayRef<MeasureCandidate> candidates);
  std::string writeData(llvm::ArrayRef<uint8_t> bytes);
};

/// The default path of the runner: $TESSEL_CUDA_RUNNER, else
/// `tessel-cuda-runner` in the directory of the running executable.
std::string getDefaultRunnerPath();

} // namespace tessel
} // namespace mlir

#endif // TESSEL_TUNING_MEASURE_CUDAMEASURER_H
