//===- MockCudaDriver.cpp - A fake libcuda for testing the GPU tools ------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//
//
// libtessel-mock-cuda.so implements the driver entry points that the GPU
// tools resolve (CudaDriver.h), on the host, so that tessel-cuda-runner can
// be tested end to end on machines without a GPU: load it with
// TESSEL_CUDA_DRIVER=<path>. Device memory is host memory; "cubins" are text
// files starting with "TESSEL-MOCK-CUBIN"; kernels are the host functions of
// the table below, with fixed limits and costs. Time is virtual: every
// operation advances a clock by a power-of-two fraction of a millisecond, so
// event timings (and the runner's repeat counts) are exact and
// deterministic. Like a real driver, an illegal address poisons the context:
// every later call fails with it.
//
// TESSEL_MOCK_CUDA_DEVICES sets the device count (default 1).
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

/// The virtual clock, in milliseconds.
double clockMs = 0;
/// The sticky error, once a kernel faulted.
CUresult stickyError = CUDA_SUCCESS;

constexpr double kCopyMs = 1.0 / 1024;
constexpr size_t kMaxAllocation = size_t(1) << 30;
constexpr int kSharedPerBlock = 48 * 1024;
constexpr int kSharedPerBlockOptin = 232448;

struct MockKernel {
  const char *name;
  std::vector<size_t> paramSizes;
  int maxThreads;
  int registers;
  int staticShared;
  double costMs;
  /// What cuLaunchKernel returns; CUDA_ERROR_ILLEGAL_ADDRESS is reported
  /// asynchronously, at the next synchronization.
  CUresult launchResult;
  void (*run)(void **params);
  /// Set through cuFuncSetAttribute.
  int maxDynamicShared = kSharedPerBlock;
};

template <typename T>
T param(void **params, int index) {
  T value;
  std::memcpy(&value, params[index], sizeof(T));
  return value;
}

/// fill_f32(float *out, int64 n, float value)
void fill(void **params) {
  auto *out = reinterpret_cast<float *>(param<CUdeviceptr>(params, 0));
  int64_t n = param<int64_t>(params, 1);
  float value = param<float>(params, 2);
  for (int64_t i = 0; i < n; ++i)
    out[i] = value;
}

/// add_f32(const float *a, const float *b, float *c, int32 n)
void add(void **params) {
  auto *a = reinterpret_cast<const float *>(param<CUdeviceptr>(params, 0));
  auto *b = reinterpret_cast<const float *>(param<CUdeviceptr>(params, 1));
  auto *c = reinterpret_cast<float *>(param<CUdeviceptr>(params, 2));
  int32_t n = param<int32_t>(params, 3);
  for (int32_t i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

void nothing(void **) {}

std::vector<MockKernel> &getKernels() {
  static std::vector<MockKernel> kernels = {
      {"fill_f32", {8, 8, 4}, 1024, 32, 0, 1.0 / 64, CUDA_SUCCESS, fill},
      {"add_f32", {8, 8, 8, 4}, 1024, 32, 0, 1.0 / 128, CUDA_SUCCESS, add},
      {"illegal_address",
       {8},
       1024,
       16,
       0,
       1.0 / 64,
       CUDA_ERROR_ILLEGAL_ADDRESS,
       nothing},
      {"heavy_registers", {8}, 256, 255, 0, 1.0 / 64, CUDA_SUCCESS, nothing},
      {"big_static_shared",
       {8},
       1024,
       32,
       40000,
       1.0 / 64,
       CUDA_SUCCESS,
       nothing},
      {"too_many_resources",
       {8},
       1024,
       32,
       0,
       1.0 / 64,
       CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
       nothing},
  };
  return kernels;
}

MockKernel *kernelOf(CUfunction function) {
  return reinterpret_cast<MockKernel *>(function);
}

int getDeviceCount() {
  const char *count = std::getenv("TESSEL_MOCK_CUDA_DEVICES");
  return count ? std::atoi(count) : 1;
}

#define CHECK_STICKY()                                                         \
  if (stickyError != CUDA_SUCCESS)                                             \
    return stickyError;

} // namespace

extern "C" {

CUresult CUDAAPI cuInit(unsigned int) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuDriverGetVersion(int *version) {
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case CUDA_SUCCESS:
    *name = "CUDA_SUCCESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_VALUE:
    *name = "CUDA_ERROR_INVALID_VALUE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_OUT_OF_MEMORY:
    *name = "CUDA_ERROR_OUT_OF_MEMORY";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_IMAGE:
    *name = "CUDA_ERROR_INVALID_IMAGE";
    return CUDA_SUCCESS;
  case CUDA_ERROR_NOT_FOUND:
    *name = "CUDA_ERROR_NOT_FOUND";
    return CUDA_SUCCESS;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *name = "CUDA_ERROR_ILLEGAL_ADDRESS";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    *name = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    return CUDA_SUCCESS;
  default:
    *name = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case CUDA_ERROR_OUT_OF_MEMORY:
    *text = "out of memory";
    return CUDA_SUCCESS;
  case CUDA_ERROR_INVALID_IMAGE:
    *text = "device kernel image is invalid";
    return CUDA_SUCCESS;
  case CUDA_ERROR_ILLEGAL_ADDRESS:
    *text = "an illegal memory access was encountered";
    return CUDA_SUCCESS;
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    *text = "too many resources requested for launch";
    return CUDA_SUCCESS;
  default:
    *text = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuDeviceGetCount(int *count) {
  *count = getDeviceCount();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
  if (ordinal < 0 || ordinal >= getDeviceCount())
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char *name, int length, CUdevice) {
  std::strncpy(name, "Tessel Mock GPU", length);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                                      CUdevice) {
  switch (attribute) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *value = 9;
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *value = 0;
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *value = 132;
    break;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    *value = 1980000;
    break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
    *value = 2619000;
    break;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
    *value = 5120;
    break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *value = 1 << 20;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *value = kSharedPerBlock;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *value = kSharedPerBlockOptin;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *value = 233472;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = 1024;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
    *value = 65536;
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceTotalMem(size_t *bytes, CUdevice) {
  *bytes = size_t(80) << 30;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetPCIBusId(char *busId, int length, CUdevice) {
  // A bus id no real device has, so that NVML never answers for it.
  std::strncpy(busId, "ffff:ff:1f.7", length);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  static int dummy;
  *context = reinterpret_cast<CUcontext>(&dummy);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuCtxSynchronize() {
  CHECK_STICKY();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *module, const void *image,
                                    unsigned int count, CUjit_option *keys,
                                    void **values) {
  CHECK_STICKY();
  const char *magic = "TESSEL-MOCK-CUBIN";
  if (std::strncmp(static_cast<const char *>(image), magic,
                   std::strlen(magic)) != 0) {
    char *log = nullptr;
    size_t size = 0;
    for (unsigned i = 0; i < count; ++i) {
      if (keys[i] == CU_JIT_ERROR_LOG_BUFFER)
        log = static_cast<char *>(values[i]);
      if (keys[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        size = reinterpret_cast<size_t>(values[i]);
    }
    if (log && size)
      std::snprintf(log, size, "%s", "mock: not a mock cubin\nsecond line");
    return CUDA_ERROR_INVALID_IMAGE;
  }
  static int dummy;
  *module = reinterpret_cast<CUmodule>(&dummy);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadData(CUmodule *module, const void *image) {
  return cuModuleLoadDataEx(module, image, 0, nullptr, nullptr);
}

CUresult CUDAAPI cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuModuleGetFunction(CUfunction *function, CUmodule,
                                     const char *name) {
  CHECK_STICKY();
  for (MockKernel &kernel : getKernels())
    if (std::strcmp(kernel.name, name) == 0) {
      *function = reinterpret_cast<CUfunction>(&kernel);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuFuncGetAttribute(int *value, CUfunction_attribute attribute,
                                    CUfunction function) {
  MockKernel *kernel = kernelOf(function);
  switch (attribute) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *value = kernel->maxThreads;
    break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS:
    *value = kernel->registers;
    break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES:
    *value = kernel->staticShared;
    break;
  default:
    *value = 0;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction function,
                                    CUfunction_attribute attribute, int value) {
  MockKernel *kernel = kernelOf(function);
  if (attribute != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    return CUDA_SUCCESS;
  if (value + kernel->staticShared > kSharedPerBlockOptin)
    return CUDA_ERROR_INVALID_VALUE;
  kernel->maxDynamicShared = value;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction function, size_t index,
                                    size_t *offset, size_t *size) {
  MockKernel *kernel = kernelOf(function);
  if (index >= kernel->paramSizes.size())
    return CUDA_ERROR_INVALID_VALUE;
  *offset = 0;
  for (size_t i = 0; i < index; ++i)
    *offset += kernel->paramSizes[i];
  *size = kernel->paramSizes[index];
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  CHECK_STICKY();
  if (bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (bytes > kMaxAllocation)
    return CUDA_ERROR_OUT_OF_MEMORY;
  void *memory = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!memory)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = reinterpret_cast<CUdeviceptr>(memory);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr pointer) {
  std::free(reinterpret_cast<void *>(pointer));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
  CHECK_STICKY();
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  CHECK_STICKY();
  std::memcpy(dst, reinterpret_cast<void *>(src), bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoD(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  CHECK_STICKY();
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<void *>(src),
               bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src,
                                   size_t bytes, CUstream) {
  clockMs += kCopyMs;
  return cuMemcpyDtoD(dst, src, bytes);
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr dst, unsigned char value,
                                 size_t bytes, CUstream) {
  CHECK_STICKY();
  clockMs += kCopyMs;
  std::memset(reinterpret_cast<void *>(dst), value, bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction function, unsigned gridX,
                                unsigned gridY, unsigned gridZ, unsigned blockX,
                                unsigned blockY, unsigned blockZ,
                                unsigned sharedBytes, CUstream, void **params,
                                void **) {
  CHECK_STICKY();
  MockKernel *kernel = kernelOf(function);
  if (!gridX || !gridY || !gridZ || !blockX || !blockY || !blockZ ||
      uint64_t(blockX) * blockY * blockZ > uint64_t(kernel->maxThreads))
    return CUDA_ERROR_INVALID_VALUE;
  if (kernel->staticShared + sharedBytes > unsigned(kSharedPerBlock) &&
      sharedBytes > unsigned(kernel->maxDynamicShared))
    return CUDA_ERROR_INVALID_VALUE;
  if (kernel->launchResult == CUDA_ERROR_ILLEGAL_ADDRESS) {
    stickyError = CUDA_ERROR_ILLEGAL_ADDRESS;
    return CUDA_SUCCESS;
  }
  if (kernel->launchResult != CUDA_SUCCESS)
    return kernel->launchResult;
  clockMs += kernel->costMs;
  kernel->run(params);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent *event, unsigned int) {
  *event = reinterpret_cast<CUevent>(new double(0));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent event, CUstream) {
  CHECK_STICKY();
  *reinterpret_cast<double *>(event) = clockMs;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventSynchronize(CUevent) {
  CHECK_STICKY();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  CHECK_STICKY();
  *ms = static_cast<float>(*reinterpret_cast<double *>(end) -
                           *reinterpret_cast<double *>(start));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy(CUevent event) {
  delete reinterpret_cast<double *>(event);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamCreate(CUstream *stream, unsigned int) {
  static int dummy;
  *stream = reinterpret_cast<CUstream>(&dummy);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamSynchronize(CUstream) {
  CHECK_STICKY();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }

} // extern "C"
