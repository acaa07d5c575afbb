//===- CudaDriver.h - The CUDA driver API, opened at run time ---*- C++ -*-===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// The GPU tools never link libcuda: a binary that links it does not even
// start on a machine without the driver, and the tools must say clearly why
// they cannot measure ("no CUDA driver/device found: <reason>", exit 3). The
// driver library is opened with dlopen and each entry point is resolved by
// the symbol name that cuda.h would link against (cuMemAlloc is
// cuMemAlloc_v2, cuEventElapsedTime is cuEventElapsedTime_v2, ...); the
// function types come from the prototypes in cuda.h, used only through
// pointers. The environment variable TESSEL_CUDA_DRIVER names another
// library to open (tests use it to make "no driver" deterministic).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_CUDADRIVER_H
#define TESSEL_RUNTIME_CUDADRIVER_H

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace tessel {
namespace runtime {

/// The first words of the one-line message of a tool that finds no usable
/// driver or device.
constexpr const char *kNoDeviceMessage = "no CUDA driver/device found";

/// The driver entry points the tools use. Each name goes through cuda.h's
/// macros, so `X(cuMemAlloc)` declares and resolves cuMemAlloc_v2.
#define TESSEL_CUDA_DRIVER_FUNCTIONS(X)                                        \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDeviceGetPCIBusId)                                                       \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoD)                                                              \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuMemsetD8Async)                                                           \
  X(cuLaunchKernel)                                                            \
  X(cuEventCreate)                                                             \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuEventDestroy)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamDestroy)

/// Entry points that older drivers lack; null when absent.
#define TESSEL_CUDA_DRIVER_OPTIONAL_FUNCTIONS(X) X(cuFuncGetParamInfo)

/// Pointers to the driver's entry points.
struct CudaDriverApi {
#define TESSEL_DECLARE_ENTRY_POINT(name) decltype(&::name) name = nullptr;
  TESSEL_CUDA_DRIVER_FUNCTIONS(TESSEL_DECLARE_ENTRY_POINT)
  TESSEL_CUDA_DRIVER_OPTIONAL_FUNCTIONS(TESSEL_DECLARE_ENTRY_POINT)
#undef TESSEL_DECLARE_ENTRY_POINT
};

/// How a failed call affects the measurement of a candidate.
enum class ErrorClass {
  /// The kernel asks for more than the device has (threads, registers,
  /// shared memory, device memory): status out_of_resources.
  OutOfResources,
  /// The module or launch is invalid, the context is still usable: status
  /// launch_error.
  LaunchError,
  /// The context is unusable from now on (illegal address, launch failed,
  /// ...): status launch_error, and the process must exit (code 4).
  Sticky,
};

/// The class of a CUresult other than CUDA_SUCCESS.
ErrorClass classifyCudaError(CUresult result);
/// "CUDA_ERROR_ILLEGAL_ADDRESS" etc. for the results the tools distinguish,
/// from a built-in table (a stub or broken driver cannot name its errors);
/// null for others.
const char *getBuiltinCudaErrorName(CUresult result);

/// The outcome of a sequence of GPU work: success, or the first failure with
/// its class and a message that names the failing call.
struct Status {
  bool failed = false;
  ErrorClass errorClass = ErrorClass::LaunchError;
  /// The CUDA result of the failing call (CUDA_SUCCESS when another library
  /// failed).
  CUresult code = CUDA_SUCCESS;
  std::string message;

  bool ok() const { return !failed; }
  static Status success() { return Status(); }
  static Status failure(ErrorClass errorClass, std::string message,
                        CUresult code = CUDA_SUCCESS) {
    Status status;
    status.failed = true;
    status.errorClass = errorClass;
    status.code = code;
    status.message = std::move(message);
    return status;
  }
};

/// The facts about a device that the tools report.
struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string pciBusId;
  int driverVersion = 0;
  int computeCapabilityMajor = 0;
  int computeCapabilityMinor = 0;
  int smCount = 0;
  /// Peak SM and memory clocks as the driver reports them.
  int clockKHz = 0;
  int memoryClockKHz = 0;
  int memoryBusWidthBits = 0;
  int l2Bytes = 0;
  uint64_t memoryBytes = 0;
  int sharedBytesPerBlock = 0;
  int sharedBytesPerBlockOptin = 0;
  int sharedBytesPerSm = 0;
  int maxThreadsPerBlock = 0;
  int registersPerSm = 0;
  /// The SM clock at the time of the query, read through NVML (the driver
  /// has no attribute for it); -1 when NVML is not available.
  int currentSmClockKHz = -1;

  /// "9.0".
  std::string getComputeCapability() const;
};

/// An opened driver with the primary context of one device current on the
/// calling thread.
class CudaDriver {
public:
  /// Opens the driver library (TESSEL_CUDA_DRIVER, else libcuda.so.1),
  /// resolves the entry points, initializes the driver and makes the primary
  /// context of device `ordinal` current. On failure returns null and sets
  /// `reason` (the text after "no CUDA driver/device found: ").
  static std::unique_ptr<CudaDriver> open(int ordinal, std::string &reason);
  ~CudaDriver();

  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

  const CudaDriverApi &api() const { return entryPoints; }
  const CudaDriverApi *operator->() const { return &entryPoints; }
  CUdevice getDevice() const { return device; }
  /// The library that was opened.
  const std::string &getLibraryPath() const { return libraryPath; }

  /// "CUDA_ERROR_INVALID_VALUE (invalid argument)".
  std::string describe(CUresult result) const;
  /// Success for CUDA_SUCCESS, else a failure "<what>: <describe(result)>"
  /// classified by classifyCudaError.
  Status check(CUresult result, std::string_view what) const;

  /// A device attribute; 0 when the driver cannot report it.
  int getAttribute(CUdevice_attribute attribute) const;
  /// The facts of the device.
  DeviceInfo queryDevice() const;

private:
  CudaDriver() = default;

  void *library = nullptr;
  std::string libraryPath;
  CudaDriverApi entryPoints;
  CUdevice device = 0;
  int ordinal = 0;
  bool contextRetained = false;
};

/// A device allocation, freed on destruction.
class DeviceBuffer {
public:
  explicit DeviceBuffer(const CudaDriver &driver) : driver(&driver) {}
  ~DeviceBuffer() { reset(); }
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  /// Allocates `bytes` (freeing the previous allocation); out_of_resources
  /// when the device has too little memory.
  Status allocate(size_t bytes);
  /// Frees the allocation (errors are ignored: the context may be gone).
  void reset();
  /// Forgets the allocation without freeing it (after a sticky error).
  void release() { pointer = 0; }

  CUdeviceptr get() const { return pointer; }
  size_t size() const { return bytes; }

private:
  const CudaDriver *driver;
  CUdeviceptr pointer = 0;
  size_t bytes = 0;
};

/// A non-blocking stream (it does not synchronize with the legacy default
/// stream), destroyed on destruction.
class Stream {
public:
  explicit Stream(const CudaDriver &driver) : driver(&driver) {}
  ~Stream();
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  Status create();
  /// Forgets the stream without destroying it (after a sticky error).
  void release() { stream = nullptr; }
  CUstream get() const { return stream; }

private:
  const CudaDriver *driver;
  CUstream stream = nullptr;
};

} // namespace runtime
} // namespace tessel

#endif // TESSEL_RUNTIME_CUDADRIVER_H
