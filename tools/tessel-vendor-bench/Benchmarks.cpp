//===- Benchmarks.cpp - Timing cuBLAS GEMMs and cuDNN convolutions --------===//
//
// Part of the Tessel project.
//
//===----------------------------------------------------------------------===//

#include "Benchmarks.h"

#include "tessel/Runtime/Check.h"
#include "tessel/Runtime/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace tessel::runtime;

//===----------------------------------------------------------------------===//
// BenchResult
//===----------------------------------------------------------------------===//

std::string BenchResult::toJSON(const std::string &deviceName) const {
  json::ObjectWriter writer;
  writer.addString("library", library)
      .addString("op", op)
      .addRaw("shape", shapeJSON)
      .addString("status", status);
  if (status == "ok") {
    writer.addRaw("timing", timing.toJSON());
    if (timing.medianUs > 0)
      writer.addNumber("gflops", flops / timing.medianUs / 1e3);
  }
  writer.addString("algorithm", algorithm)
      .addString("message", message)
      .addInt("library_version", libraryVersion)
      .addString("device", deviceName)
      .addNumber("flops", flops)
      .addInt("workspace_bytes", workspaceBytes)
      .addBool("verified", verified);
  if (verified)
    writer.addNumber("rel_l2_error", relativeL2Error);
  return writer.str();
}

std::string BenchResult::toText() const {
  std::string text = library + " " + op + " " + shapeJSON + ": " + status;
  if (status == "ok") {
    char buffer[256];
    std::snprintf(buffer, sizeof(buffer),
                  ", median %.3f us (min %.3f, max %.3f, stddev %.3f, %lld "
                  "repeats), %.1f GFLOP/s",
                  timing.medianUs, timing.minUs, timing.maxUs, timing.stddevUs,
                  static_cast<long long>(timing.repeats),
                  timing.medianUs > 0 ? flops / timing.medianUs / 1e3 : 0.0);
    text += buffer;
  }
  if (!algorithm.empty())
    text += ", " + algorithm;
  if (verified)
    text +=
        ", checked (rel L2 error " + json::formatNumber(relativeL2Error) + ")";
  if (!message.empty())
    text += ": " + message;
  return text;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {

/// Random values in +-[0.1, 1): never zero (see docs: zeros hide bugs and
/// can run faster).
std::vector<float> makeRandom(size_t count, uint64_t seed) {
  std::vector<float> values(count);
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float &value : values) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    double unit = static_cast<double>(state >> 11) * 0x1.0p-53;
    value = static_cast<float>((0.1 + 0.9 * unit) * ((state & 1) ? -1 : 1));
  }
  return values;
}

/// Marks `result` failed with `status`.
void fail(BenchResult &result, const Status &status) {
  result.status = status.errorClass == ErrorClass::OutOfResources
                      ? "out_of_resources"
                      : "launch_error";
  result.message = status.message;
  result.sticky = status.errorClass == ErrorClass::Sticky;
  if (result.sticky)
    result.message += " (the CUDA context is unusable: the tool exits)";
}

/// Allocates `buffer` and uploads `values` (or poisons it when empty).
Status upload(const CudaDriver &driver, DeviceBuffer &buffer,
              const std::vector<float> &values, size_t count,
              const char *name) {
  Status status = buffer.allocate(count * sizeof(float));
  if (!status.ok()) {
    status.message = std::string(name) + ": " + status.message;
    return status;
  }
  if (values.empty())
    return driver.check(driver->cuMemsetD8Async(buffer.get(), 0xFF,
                                                count * sizeof(float), nullptr),
                        std::string(name) + ": cuMemsetD8Async");
  return driver.check(
      driver->cuMemcpyHtoD(buffer.get(), values.data(), count * sizeof(float)),
      std::string(name) + ": cuMemcpyHtoD");
}

/// Waits for `stream`; a failure found there is the work's (and may be
/// sticky).
Status synchronize(const CudaDriver &driver, CUstream stream,
                   const std::string &what) {
  return driver.check(driver->cuStreamSynchronize(stream), what);
}

/// Downloads `count` floats of `buffer` and compares them with `reference`.
Status verify(const CudaDriver &driver, const DeviceBuffer &buffer,
              const std::vector<double> &reference, BenchResult &result) {
  std::vector<float> got(reference.size());
  Status status = driver.check(driver->cuMemcpyDtoH(got.data(), buffer.get(),
                                                    got.size() * sizeof(float)),
                               "cuMemcpyDtoH (result)");
  if (!status.ok())
    return status;
  result.verified = true;
  result.relativeL2Error =
      relativeL2Error(got.data(), reference.data(), got.size());
  if (!(result.relativeL2Error <= kMaxRelativeL2Error)) {
    result.status = "wrong_result";
    result.message = "relative L2 error " +
                     json::formatNumber(result.relativeL2Error) +
                     " against the CPU reference exceeds " +
                     json::formatNumber(kMaxRelativeL2Error);
    if (std::isnan(result.relativeL2Error))
      result.message = "the result holds NaN or infinity";
  }
  return Status::success();
}

const char *getAlgorithmName(cudnnConvolutionFwdAlgo_t algorithm) {
  switch (algorithm) {
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM:
    return "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM:
    return "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_GEMM:
    return "CUDNN_CONVOLUTION_FWD_ALGO_GEMM";
  case CUDNN_CONVOLUTION_FWD_ALGO_DIRECT:
    return "CUDNN_CONVOLUTION_FWD_ALGO_DIRECT";
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT:
    return "CUDNN_CONVOLUTION_FWD_ALGO_FFT";
  case CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING:
    return "CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING";
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD:
    return "CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD";
  case CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED:
    return "CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED";
  default:
    return "unknown";
  }
}

/// The cuDNN descriptors of one convolution, destroyed together.
struct ConvDescriptors {
  explicit ConvDescriptors(const CudnnApi &api) : api(api) {}
  ~ConvDescriptors() {
    if (x)
      api.cudnnDestroyTensorDescriptor(x);
    if (y)
      api.cudnnDestroyTensorDescriptor(y);
    if (w)
      api.cudnnDestroyFilterDescriptor(w);
    if (conv)
      api.cudnnDestroyConvolutionDescriptor(conv);
  }

  const CudnnApi &api;
  cudnnTensorDescriptor_t x = nullptr;
  cudnnTensorDescriptor_t y = nullptr;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
};

} // namespace

//===----------------------------------------------------------------------===//
// VendorBench
//===----------------------------------------------------------------------===//

/// The vendor libraries, opened on first use.
struct VendorBench::Libraries {
  bool cublasTried = false;
  std::string cublasError;
  CublasApi cublas;
  cublasHandle_t cublasHandle = nullptr;

  bool cudnnTried = false;
  std::string cudnnError;
  CudnnApi cudnn;
  cudnnHandle_t cudnnHandle = nullptr;
};

VendorBench::VendorBench(const CudaDriver &driver, CUstream stream,
                         L2Flusher *flusher, const TimingOptions &options)
    : driver(driver), stream(stream), flusher(flusher), options(options),
      libraries(std::make_unique<Libraries>()) {}

VendorBench::~VendorBench() {
  if (libraries->cublasHandle)
    libraries->cublas.cublasDestroy(libraries->cublasHandle);
  if (libraries->cudnnHandle)
    libraries->cudnn.cudnnDestroy(libraries->cudnnHandle);
}

/// A cuBLAS status as a Status; an execution failure is looked up on the
/// stream, where the CUDA error (perhaps sticky) shows.
static Status checkCublas(const CudaDriver &driver, CUstream stream,
                          const CublasApi &api, cublasStatus_t status,
                          const std::string &what) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return Status::success();
  if (status == CUBLAS_STATUS_EXECUTION_FAILED) {
    Status sync = synchronize(driver, stream, what);
    if (!sync.ok())
      return sync;
  }
  return Status::failure(status == CUBLAS_STATUS_ALLOC_FAILED
                             ? ErrorClass::OutOfResources
                             : ErrorClass::LaunchError,
                         what + ": " + api.describe(status));
}

static Status checkCudnn(const CudaDriver &driver, CUstream stream,
                         const CudnnApi &api, cudnnStatus_t status,
                         const std::string &what) {
  if (status == CUDNN_STATUS_SUCCESS)
    return Status::success();
  if (status == CUDNN_STATUS_EXECUTION_FAILED) {
    Status sync = synchronize(driver, stream, what);
    if (!sync.ok())
      return sync;
  }
  return Status::failure(status == CUDNN_STATUS_ALLOC_FAILED
                             ? ErrorClass::OutOfResources
                             : ErrorClass::LaunchError,
                         what + ": " + api.describe(status));
}

Status VendorBench::runCheckedAndTimed(
    const TimedWork &work, const std::string &what, const DeviceBuffer &output,
    int64_t amountOfWork,
    const std::function<std::vector<double>()> &computeReference,
    BenchResult &result) {
  Status status = work();
  if (status.ok())
    status = synchronize(driver, stream, what);
  if (status.ok() && amountOfWork <= kMaxVerifiedWork)
    status = verify(driver, output, computeReference(), result);
  if (status.ok() && result.status == "ok")
    status =
        timeRepeated(driver, stream, flusher, options, work, result.timing);
  return status;
}

BenchResult VendorBench::runGemm(const GemmShape &shape) {
  BenchResult result;
  result.library = "cublas";
  result.op = shape.batch > 1 ? "gemm_strided_batched" : "gemm";
  result.shapeJSON = json::ObjectWriter()
                         .addInt("m", shape.m)
                         .addInt("n", shape.n)
                         .addInt("k", shape.k)
                         .addInt("batch", shape.batch)
                         .str();
  result.flops = shape.getFlops();
  result.algorithm = std::string(shape.batch > 1 ? "cublasSgemmStridedBatched"
                                                 : "cublasSgemm_v2") +
                     " (CUBLAS_DEFAULT_MATH)";

  Libraries &libs = *libraries;
  const CublasApi &api = libs.cublas;
  if (!libs.cublasTried) {
    libs.cublasTried = true;
    if (loadCublas(libs.cublas, libs.cublasError)) {
      Status status =
          checkCublas(driver, stream, api, api.cublasCreate(&libs.cublasHandle),
                      "cublasCreate");
      if (status.ok())
        status = checkCublas(driver, stream, api,
                             api.cublasSetStream(libs.cublasHandle, stream),
                             "cublasSetStream");
      if (status.ok())
        status = checkCublas(
            driver, stream, api,
            api.cublasSetMathMode(libs.cublasHandle, CUBLAS_DEFAULT_MATH),
            "cublasSetMathMode");
      if (!status.ok())
        libs.cublasError = status.message;
    }
  }
  if (!libs.cublasError.empty()) {
    fail(result, Status::failure(ErrorClass::LaunchError, libs.cublasError));
    return result;
  }
  int version = 0;
  if (api.cublasGetVersion(libs.cublasHandle, &version) ==
      CUBLAS_STATUS_SUCCESS)
    result.libraryVersion = version;

  size_t sizeA = shape.batch * shape.m * shape.k;
  size_t sizeB = shape.batch * shape.k * shape.n;
  size_t sizeC = shape.batch * shape.m * shape.n;
  std::vector<float> a = makeRandom(sizeA, 1), b = makeRandom(sizeB, 2);
  DeviceBuffer deviceA(driver), deviceB(driver), deviceC(driver);
  Status status = upload(driver, deviceA, a, sizeA, "A");
  if (status.ok())
    status = upload(driver, deviceB, b, sizeB, "B");
  if (status.ok())
    status = upload(driver, deviceC, {}, sizeC, "C");
  if (status.ok())
    status = driver.check(driver->cuCtxSynchronize(), "uploading the inputs");
  if (!status.ok()) {
    fail(result, status);
    return result;
  }

  // Row-major C = A * B is column-major C^T = B^T * A^T.
  const float alpha = 1, beta = 0;
  auto *pointerA = reinterpret_cast<const float *>(deviceA.get());
  auto *pointerB = reinterpret_cast<const float *>(deviceB.get());
  auto *pointerC = reinterpret_cast<float *>(deviceC.get());
  int m = static_cast<int>(shape.m), n = static_cast<int>(shape.n),
      k = static_cast<int>(shape.k), batch = static_cast<int>(shape.batch);
  TimedWork work = [&]() -> Status {
    if (batch == 1)
      return checkCublas(driver, stream, api,
                         api.cublasSgemm(libs.cublasHandle, CUBLAS_OP_N,
                                         CUBLAS_OP_N, n, m, k, &alpha, pointerB,
                                         n, pointerA, k, &beta, pointerC, n),
                         "cublasSgemm_v2");
    return checkCublas(
        driver, stream, api,
        api.cublasSgemmStridedBatched(
            libs.cublasHandle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha,
            pointerB, n, static_cast<long long>(shape.k) * shape.n, pointerA, k,
            static_cast<long long>(shape.m) * shape.k, &beta, pointerC, n,
            static_cast<long long>(shape.m) * shape.n, batch),
        "cublasSgemmStridedBatched");
  };

  if (status.ok())
    status = runCheckedAndTimed(
        work, "running the GEMM", deviceC, shape.getWork(),
        [&] {
          std::vector<double> reference(sizeC);
          referenceGemm(shape, a.data(), b.data(), reference.data());
          return reference;
        },
        result);
  if (!status.ok())
    fail(result, status);
  if (result.sticky) {
    deviceA.release();
    deviceB.release();
    deviceC.release();
  }
  return result;
}

BenchResult VendorBench::runConv(const ConvShape &shape) {
  BenchResult result;
  result.library = "cudnn";
  result.op = "conv2d_fprop";
  int64_t p = shape.getOutputH(), q = shape.getOutputW();
  result.shapeJSON = json::ObjectWriter()
                         .addInt("n", shape.n)
                         .addInt("c", shape.c)
                         .addInt("h", shape.h)
                         .addInt("w", shape.w)
                         .addInt("f", shape.f)
                         .addInt("r", shape.r)
                         .addInt("s", shape.s)
                         .addInt("stride", shape.stride)
                         .addInt("pad", shape.pad)
                         .addInt("dilation", shape.dilation)
                         .addInt("p", p)
                         .addInt("q", q)
                         .str();
  result.flops = shape.getFlops();

  Libraries &libs = *libraries;
  const CudnnApi &api = libs.cudnn;
  if (!libs.cudnnTried) {
    libs.cudnnTried = true;
    if (loadCudnn(libs.cudnn, libs.cudnnError)) {
      Status status =
          checkCudnn(driver, stream, api, api.cudnnCreate(&libs.cudnnHandle),
                     "cudnnCreate");
      if (status.ok())
        status = checkCudnn(driver, stream, api,
                            api.cudnnSetStream(libs.cudnnHandle, stream),
                            "cudnnSetStream");
      if (!status.ok())
        libs.cudnnError = status.message;
    }
  }
  if (!libs.cudnnError.empty()) {
    fail(result, Status::failure(ErrorClass::LaunchError, libs.cudnnError));
    return result;
  }
  result.libraryVersion = static_cast<int64_t>(api.cudnnGetVersion());
  cudnnHandle_t handle = libs.cudnnHandle;

  // Descriptors.
  ConvDescriptors descriptors(api);
  auto check = [&](cudnnStatus_t status, const char *what) {
    return checkCudnn(driver, stream, api, status, what);
  };
  int n = static_cast<int>(shape.n), c = static_cast<int>(shape.c),
      h = static_cast<int>(shape.h), w = static_cast<int>(shape.w),
      f = static_cast<int>(shape.f), r = static_cast<int>(shape.r),
      s = static_cast<int>(shape.s);
  Status status =
      check(api.cudnnCreateTensorDescriptor(&descriptors.x), "descriptor");
  if (status.ok())
    status =
        check(api.cudnnCreateTensorDescriptor(&descriptors.y), "descriptor");
  if (status.ok())
    status =
        check(api.cudnnCreateFilterDescriptor(&descriptors.w), "descriptor");
  if (status.ok())
    status = check(api.cudnnCreateConvolutionDescriptor(&descriptors.conv),
                   "descriptor");
  if (status.ok())
    status =
        check(api.cudnnSetTensor4dDescriptor(descriptors.x, CUDNN_TENSOR_NCHW,
                                             CUDNN_DATA_FLOAT, n, c, h, w),
              "cudnnSetTensor4dDescriptor (input)");
  if (status.ok())
    status =
        check(api.cudnnSetFilter4dDescriptor(descriptors.w, CUDNN_DATA_FLOAT,
                                             CUDNN_TENSOR_NCHW, f, c, r, s),
              "cudnnSetFilter4dDescriptor");
  if (status.ok())
    status = check(
        api.cudnnSetConvolution2dDescriptor(
            descriptors.conv, static_cast<int>(shape.pad),
            static_cast<int>(shape.pad), static_cast<int>(shape.stride),
            static_cast<int>(shape.stride), static_cast<int>(shape.dilation),
            static_cast<int>(shape.dilation), CUDNN_CROSS_CORRELATION,
            CUDNN_DATA_FLOAT),
        "cudnnSetConvolution2dDescriptor");
  if (status.ok())
    status =
        check(api.cudnnSetConvolutionMathType(descriptors.conv, CUDNN_FMA_MATH),
              "cudnnSetConvolutionMathType");
  int dims[4] = {0, 0, 0, 0};
  if (status.ok())
    status = check(api.cudnnGetConvolution2dForwardOutputDim(
                       descriptors.conv, descriptors.x, descriptors.w, &dims[0],
                       &dims[1], &dims[2], &dims[3]),
                   "cudnnGetConvolution2dForwardOutputDim");
  if (status.ok() &&
      (dims[0] != n || dims[1] != f || dims[2] != p || dims[3] != q))
    status = Status::failure(
        ErrorClass::LaunchError,
        "cuDNN computes an output of " + std::to_string(dims[0]) + "x" +
            std::to_string(dims[1]) + "x" + std::to_string(dims[2]) + "x" +
            std::to_string(dims[3]) + ", the shape says " + std::to_string(n) +
            "x" + std::to_string(f) + "x" + std::to_string(p) + "x" +
            std::to_string(q));
  if (status.ok())
    status = check(api.cudnnSetTensor4dDescriptor(
                       descriptors.y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, f,
                       static_cast<int>(p), static_cast<int>(q)),
                   "cudnnSetTensor4dDescriptor (output)");
  if (!status.ok()) {
    fail(result, status);
    return result;
  }

  // Buffers.
  size_t sizeX = shape.n * shape.c * shape.h * shape.w;
  size_t sizeW = shape.f * shape.c * shape.r * shape.s;
  size_t sizeY = shape.n * shape.f * p * q;
  std::vector<float> x = makeRandom(sizeX, 3), weights = makeRandom(sizeW, 4);
  DeviceBuffer deviceX(driver), deviceW(driver), deviceY(driver),
      workspace(driver);
  status = upload(driver, deviceX, x, sizeX, "input");
  if (status.ok())
    status = upload(driver, deviceW, weights, sizeW, "filter");
  if (status.ok())
    status = upload(driver, deviceY, {}, sizeY, "output");
  if (status.ok())
    status = driver.check(driver->cuCtxSynchronize(), "uploading the inputs");
  if (!status.ok()) {
    fail(result, status);
    return result;
  }

  // cuDNN's own search, with a workspace that fits every algorithm (at most
  // 1 GiB, less if the device has less free).
  size_t workspaceBytes = 0;
  for (int algorithm = 0; algorithm < CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
       ++algorithm) {
    size_t bytes = 0;
    if (api.cudnnGetConvolutionForwardWorkspaceSize(
            handle, descriptors.x, descriptors.w, descriptors.conv,
            descriptors.y, static_cast<cudnnConvolutionFwdAlgo_t>(algorithm),
            &bytes) == CUDNN_STATUS_SUCCESS)
      workspaceBytes = std::max(workspaceBytes, bytes);
  }
  workspaceBytes = std::min<size_t>(workspaceBytes, size_t(1) << 30);
  while (workspaceBytes > 0 && !workspace.allocate(workspaceBytes).ok())
    workspaceBytes /= 2;
  int maxCount = 0;
  status =
      check(api.cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &maxCount),
            "cudnnGetConvolutionForwardAlgorithmMaxCount");
  std::vector<cudnnConvolutionFwdAlgoPerf_t> found(std::max(maxCount, 1));
  int returned = 0;
  auto pointer = [](const DeviceBuffer &buffer) {
    return reinterpret_cast<void *>(buffer.get());
  };
  if (status.ok())
    status =
        check(api.cudnnFindConvolutionForwardAlgorithmEx(
                  handle, descriptors.x, pointer(deviceX), descriptors.w,
                  pointer(deviceW), descriptors.conv, descriptors.y,
                  pointer(deviceY), static_cast<int>(found.size()), &returned,
                  found.data(), pointer(workspace), workspaceBytes),
              "cudnnFindConvolutionForwardAlgorithmEx");
  const cudnnConvolutionFwdAlgoPerf_t *chosen = nullptr;
  for (int i = 0; status.ok() && i < returned && !chosen; ++i)
    if (found[i].status == CUDNN_STATUS_SUCCESS &&
        found[i].memory <= workspaceBytes)
      chosen = &found[i];
  if (status.ok() && !chosen)
    status = Status::failure(ErrorClass::LaunchError,
                             "cudnnFindConvolutionForwardAlgorithmEx found no "
                             "algorithm that runs this shape in " +
                                 std::to_string(workspaceBytes) +
                                 " bytes of workspace");
  if (!status.ok()) {
    fail(result, status);
    return result;
  }
  cudnnConvolutionFwdAlgo_t algorithm = chosen->algo;
  size_t chosenWorkspace = chosen->memory;
  result.algorithm = std::string(getAlgorithmName(algorithm)) +
                     (chosen->mathType == CUDNN_FMA_MATH ? " (CUDNN_FMA_MATH)"
                                                         : " (tensor ops)");
  result.workspaceBytes = static_cast<int64_t>(chosenWorkspace);

  // The search wrote the output: poison it again before the checked run.
  status = driver.check(driver->cuMemsetD8Async(deviceY.get(), 0xFF,
                                                sizeY * sizeof(float), stream),
                        "cuMemsetD8Async (output)");
  const float alpha = 1, beta = 0;
  TimedWork work = [&]() -> Status {
    return check(api.cudnnConvolutionForward(
                     handle, &alpha, descriptors.x, pointer(deviceX),
                     descriptors.w, pointer(deviceW), descriptors.conv,
                     algorithm, pointer(workspace), chosenWorkspace, &beta,
                     descriptors.y, pointer(deviceY)),
                 "cudnnConvolutionForward");
  };
  if (status.ok())
    status = runCheckedAndTimed(
        work, "running the convolution", deviceY, shape.getWork(),
        [&] {
          std::vector<double> reference(sizeY);
          referenceConv(shape, x.data(), weights.data(), reference.data());
          return reference;
        },
        result);
  if (!status.ok())
    fail(result, status);
  if (result.sticky) {
    deviceX.release();
    deviceW.release();
    deviceY.release();
    workspace.release();
  }
  return result;
}
