//===- CudaDriver.cpp - The CUDA driver API, opened at run time -----------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "tessel/Runtime/CudaDriver.h"

#include <cstdlib>
#include <cstring>

#include <dlfcn.h>

using namespace tessel::runtime;

#define TESSEL_STRINGIFY_IMPL(x) #x
/// The macro-expanded name as a string: TESSEL_STRINGIFY(cuMemAlloc) is
/// "cuMemAlloc_v2".
#define TESSEL_STRINGIFY(x) TESSEL_STRINGIFY_IMPL(x)

const char *tessel::runtime::getBuiltinCudaErrorName(CUresult result) {
  switch (result) {
#define TESSEL_CASE(name)                                                      \
  case name:                                                                   \
    return #name;
    TESSEL_CASE(CUDA_SUCCESS)
    TESSEL_CASE(CUDA_ERROR_INVALID_VALUE)
    TESSEL_CASE(CUDA_ERROR_OUT_OF_MEMORY)
    TESSEL_CASE(CUDA_ERROR_NOT_INITIALIZED)
    TESSEL_CASE(CUDA_ERROR_DEINITIALIZED)
    TESSEL_CASE(CUDA_ERROR_STUB_LIBRARY)
    TESSEL_CASE(CUDA_ERROR_DEVICE_UNAVAILABLE)
    TESSEL_CASE(CUDA_ERROR_NO_DEVICE)
    TESSEL_CASE(CUDA_ERROR_INVALID_DEVICE)
    TESSEL_CASE(CUDA_ERROR_INVALID_IMAGE)
    TESSEL_CASE(CUDA_ERROR_INVALID_CONTEXT)
    TESSEL_CASE(CUDA_ERROR_NO_BINARY_FOR_GPU)
    TESSEL_CASE(CUDA_ERROR_ECC_UNCORRECTABLE)
    TESSEL_CASE(CUDA_ERROR_INVALID_PTX)
    TESSEL_CASE(CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
    TESSEL_CASE(CUDA_ERROR_INVALID_SOURCE)
    TESSEL_CASE(CUDA_ERROR_FILE_NOT_FOUND)
    TESSEL_CASE(CUDA_ERROR_INVALID_HANDLE)
    TESSEL_CASE(CUDA_ERROR_NOT_FOUND)
    TESSEL_CASE(CUDA_ERROR_NOT_READY)
    TESSEL_CASE(CUDA_ERROR_ILLEGAL_ADDRESS)
    TESSEL_CASE(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    TESSEL_CASE(CUDA_ERROR_LAUNCH_TIMEOUT)
    TESSEL_CASE(CUDA_ERROR_CONTEXT_IS_DESTROYED)
    TESSEL_CASE(CUDA_ERROR_ASSERT)
    TESSEL_CASE(CUDA_ERROR_HARDWARE_STACK_ERROR)
    TESSEL_CASE(CUDA_ERROR_ILLEGAL_INSTRUCTION)
    TESSEL_CASE(CUDA_ERROR_MISALIGNED_ADDRESS)
    TESSEL_CASE(CUDA_ERROR_INVALID_ADDRESS_SPACE)
    TESSEL_CASE(CUDA_ERROR_INVALID_PC)
    TESSEL_CASE(CUDA_ERROR_LAUNCH_FAILED)
    TESSEL_CASE(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)
    TESSEL_CASE(CUDA_ERROR_NOT_PERMITTED)
    TESSEL_CASE(CUDA_ERROR_NOT_SUPPORTED)
    TESSEL_CASE(CUDA_ERROR_SYSTEM_NOT_READY)
    TESSEL_CASE(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
    TESSEL_CASE(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)
    TESSEL_CASE(CUDA_ERROR_UNKNOWN)
#undef TESSEL_CASE
  default:
    return nullptr;
  }
}

ErrorClass tessel::runtime::classifyCudaError(CUresult result) {
  switch (result) {
  case CUDA_ERROR_OUT_OF_MEMORY:
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
  case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
    return ErrorClass::OutOfResources;
  // Errors after which the context (and every later call in it) fails. An
  // unknown error is treated as one too: restarting the runner costs less
  // than failing every later candidate.
  case CUDA_ERROR_DEINITIALIZED:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_CONTEXT_IS_DESTROYED:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_UNKNOWN:
    return ErrorClass::Sticky;
  default:
    return ErrorClass::LaunchError;
  }
}

std::string DeviceInfo::getComputeCapability() const {
  return std::to_string(computeCapabilityMajor) + "." +
         std::to_string(computeCapabilityMinor);
}

/// Describes `result` with the driver's own strings when it can give them.
static std::string describeResult(const CudaDriverApi &api, CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(result, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (api.cuGetErrorString &&
      api.cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  if (!name)
    name = getBuiltinCudaErrorName(result);
  std::string description =
      name ? name : "CUDA error " + std::to_string(static_cast<int>(result));
  if (text && *text)
    description += std::string(" (") + text + ")";
  return description;
}

/// dlerror() without the library name that glibc puts in front of it.
static std::string lastDlError(const std::string &path) {
  const char *error = dlerror();
  std::string text = error ? error : "unknown error";
  if (text.compare(0, path.size() + 2, path + ": ") == 0)
    text = text.substr(path.size() + 2);
  return text;
}

/// Looks up entry point `name`. cuEventElapsedTime_v2 (CUDA 12.8) falls back
/// to the original, which has the same signature, on older drivers.
static void *lookupEntryPoint(void *library, const char *name) {
  void *symbol = dlsym(library, name);
  if (!symbol && std::strcmp(name, "cuEventElapsedTime_v2") == 0)
    symbol = dlsym(library, "cuEventElapsedTime");
  return symbol;
}

std::unique_ptr<CudaDriver> CudaDriver::open(int ordinal, std::string &reason) {
  std::unique_ptr<CudaDriver> driver(new CudaDriver());
  const char *override = std::getenv("TESSEL_CUDA_DRIVER");
  driver->libraryPath = override && *override ? override : "libcuda.so.1";
  driver->ordinal = ordinal;
  driver->library = dlopen(driver->libraryPath.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!driver->library) {
    reason = "cannot open " + driver->libraryPath + ": " +
             lastDlError(driver->libraryPath);
    return nullptr;
  }

  CudaDriverApi &api = driver->entryPoints;
  void *symbol;
#define TESSEL_RESOLVE(name)                                                   \
  symbol = lookupEntryPoint(driver->library, TESSEL_STRINGIFY(name));          \
  if (!symbol) {                                                               \
    reason = driver->libraryPath + " has no entry point " +                    \
             TESSEL_STRINGIFY(name) + " (the driver is too old)";              \
    return nullptr;                                                            \
  }                                                                            \
  api.name = reinterpret_cast<decltype(api.name)>(symbol);
#define TESSEL_RESOLVE_OPTIONAL(name)                                          \
  api.name = reinterpret_cast<decltype(api.name)>(                             \
      lookupEntryPoint(driver->library, TESSEL_STRINGIFY(name)));
  TESSEL_CUDA_DRIVER_FUNCTIONS(TESSEL_RESOLVE)
  TESSEL_CUDA_DRIVER_OPTIONAL_FUNCTIONS(TESSEL_RESOLVE_OPTIONAL)
#undef TESSEL_RESOLVE
#undef TESSEL_RESOLVE_OPTIONAL

  CUresult result = api.cuInit(0);
  if (result != CUDA_SUCCESS) {
    reason = "cuInit failed: " + describeResult(api, result);
    return nullptr;
  }
  int count = 0;
  result = api.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    reason = "cuDeviceGetCount failed: " + describeResult(api, result);
    return nullptr;
  }
  if (count == 0) {
    reason = "the driver reports 0 devices";
    return nullptr;
  }
  if (ordinal < 0 || ordinal >= count) {
    reason = "device " + std::to_string(ordinal) +
             " requested, but the driver reports " + std::to_string(count) +
             (count == 1 ? " device" : " devices");
    return nullptr;
  }
  std::string prefix = "cannot use device " + std::to_string(ordinal) + ": ";
  if ((result = api.cuDeviceGet(&driver->device, ordinal)) != CUDA_SUCCESS) {
    reason = prefix + "cuDeviceGet: " + describeResult(api, result);
    return nullptr;
  }
  CUcontext context;
  if ((result = api.cuDevicePrimaryCtxRetain(&context, driver->device)) !=
      CUDA_SUCCESS) {
    reason =
        prefix + "cuDevicePrimaryCtxRetain: " + describeResult(api, result);
    return nullptr;
  }
  driver->contextRetained = true;
  if ((result = api.cuCtxSetCurrent(context)) != CUDA_SUCCESS) {
    reason = prefix + "cuCtxSetCurrent: " + describeResult(api, result);
    return nullptr;
  }
  return driver;
}

CudaDriver::~CudaDriver() {
  // The library stays loaded: unloading libcuda while its threads run can
  // crash at exit, and the process ends soon anyway.
  if (contextRetained)
    entryPoints.cuDevicePrimaryCtxRelease(device);
}

std::string CudaDriver::describe(CUresult result) const {
  return describeResult(entryPoints, result);
}

Status CudaDriver::check(CUresult result, std::string_view what) const {
  if (result == CUDA_SUCCESS)
    return Status::success();
  return Status::failure(classifyCudaError(result),
                         std::string(what) + ": " + describe(result), result);
}

int CudaDriver::getAttribute(CUdevice_attribute attribute) const {
  int value = 0;
  if (entryPoints.cuDeviceGetAttribute(&value, attribute, device) !=
      CUDA_SUCCESS)
    return 0;
  return value;
}

/// The current SM clock through NVML (declared here: the toolkit ships no
/// nvml.h everywhere, and these four functions have been stable since NVML
/// 2.285); -1 when NVML is absent or fails.
static int readCurrentSmClockKHz(const std::string &pciBusId) {
  void *nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml)
    return -1;
  using InitFn = int (*)();
  using HandleFn = int (*)(const char *, void **);
  using ClockFn = int (*)(void *, int, unsigned *);
  using ShutdownFn = int (*)();
  auto init = reinterpret_cast<InitFn>(dlsym(nvml, "nvmlInit_v2"));
  auto getHandle = reinterpret_cast<HandleFn>(
      dlsym(nvml, "nvmlDeviceGetHandleByPciBusId_v2"));
  auto getClock =
      reinterpret_cast<ClockFn>(dlsym(nvml, "nvmlDeviceGetClockInfo"));
  auto shutdown = reinterpret_cast<ShutdownFn>(dlsym(nvml, "nvmlShutdown"));
  if (!init || !getHandle || !getClock || !shutdown || init() != 0)
    return -1;
  constexpr int kNvmlClockSm = 1;
  void *handle = nullptr;
  unsigned mhz = 0;
  int clockKHz = -1;
  if (getHandle(pciBusId.c_str(), &handle) == 0 &&
      getClock(handle, kNvmlClockSm, &mhz) == 0)
    clockKHz = static_cast<int>(mhz) * 1000;
  shutdown();
  return clockKHz;
}

DeviceInfo CudaDriver::queryDevice() const {
  DeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {0};
  if (entryPoints.cuDeviceGetName(name, sizeof(name) - 1, device) ==
      CUDA_SUCCESS)
    info.name = name;
  char busId[64] = {0};
  if (entryPoints.cuDeviceGetPCIBusId(busId, sizeof(busId) - 1, device) ==
      CUDA_SUCCESS)
    info.pciBusId = busId;
  entryPoints.cuDriverGetVersion(&info.driverVersion);
  size_t memoryBytes = 0;
  if (entryPoints.cuDeviceTotalMem(&memoryBytes, device) == CUDA_SUCCESS)
    info.memoryBytes = memoryBytes;
  info.computeCapabilityMajor =
      getAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info.computeCapabilityMinor =
      getAttribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info.smCount = getAttribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info.clockKHz = getAttribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  info.memoryClockKHz = getAttribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  info.memoryBusWidthBits =
      getAttribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  info.l2Bytes = getAttribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  info.sharedBytesPerBlock =
      getAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  info.sharedBytesPerBlockOptin =
      getAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  info.sharedBytesPerSm =
      getAttribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  info.maxThreadsPerBlock =
      getAttribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  info.registersPerSm =
      getAttribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  if (!info.pciBusId.empty())
    info.currentSmClockKHz = readCurrentSmClockKHz(info.pciBusId);
  return info;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : driver(other.driver), pointer(other.pointer), bytes(other.bytes) {
  other.pointer = 0;
  other.bytes = 0;
}

Status DeviceBuffer::allocate(size_t size) {
  reset();
  CUdeviceptr allocation = 0;
  Status status =
      driver->check((*driver)->cuMemAlloc(&allocation, size),
                    "cuMemAlloc of " + std::to_string(size) + " bytes");
  if (status.ok()) {
    pointer = allocation;
    bytes = size;
  }
  return status;
}

void DeviceBuffer::reset() {
  if (pointer)
    (*driver)->cuMemFree(pointer);
  pointer = 0;
  bytes = 0;
}

Stream::~Stream() {
  if (stream)
    (*driver)->cuStreamDestroy(stream);
}

Status Stream::create() {
  return driver->check(
      (*driver)->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
      "cuStreamCreate");
}
